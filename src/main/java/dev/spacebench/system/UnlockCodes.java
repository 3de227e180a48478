package dev.spacebench.system;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Single-use codes for the dashboard's unlock link ({@code /unlock?code=…}): the start message
 * prints one; visiting it once gives that browser a session that may start and cancel runs.
 */
public final class UnlockCodes {

    private final SecureRandom random = new SecureRandom();
    private final Set<String> open = ConcurrentHashMap.newKeySet();

    /** @return a fresh code, valid until it is redeemed once */
    public String issue() {
        byte[] bytes = new byte[24];
        random.nextBytes(bytes);
        String code = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        open.add(code);
        return code;
    }

    /** @return true exactly once per issued code; false for anything else */
    boolean redeem(String code) {
        return code != null && open.remove(code);
    }
}
