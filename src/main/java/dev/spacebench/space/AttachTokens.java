package dev.spacebench.space;

import dev.spacebench.space.SpaceException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.KeyGenerator;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

/**
 * Seals attach tokens for storage with a run: AES-GCM under a key made at this JVM's start that
 * never leaves its memory. A database reader sees {@code sealed:v1:<base64>}, which nothing can
 * open without that key; once this app stops the key is gone, so a run queued before a restart
 * cannot be opened either and fails saying so.
 */
public final class AttachTokens {

    static final String PREFIX = "sealed:v1:";
    private static final int IV_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final SecretKey KEY = newKey();

    private AttachTokens() {}

    /** {@code token} sealed; null stays null and a sealed one stays as it is. */
    public static String seal(String token) {
        if (token == null || isSealed(token)) {
            return token;
        }
        try {
            byte[] iv = new byte[IV_BYTES];
            RANDOM.nextBytes(iv);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, KEY, new GCMParameterSpec(TAG_BITS, iv));
            byte[] sealed = cipher.doFinal(token.getBytes(StandardCharsets.UTF_8));
            byte[] all = new byte[iv.length + sealed.length];
            System.arraycopy(iv, 0, all, 0, iv.length);
            System.arraycopy(sealed, 0, all, iv.length, sealed.length);
            return PREFIX + Base64.getEncoder().encodeToString(all);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is part of every JDK: " + e, e);
        }
    }

    static boolean isSealed(String token) {
        return token != null && token.startsWith(PREFIX);
    }

    /**
     * The token a {@link #seal} made in this JVM; one given in plain (by a caller that did not
     * store it) is returned as it is.
     *
     * @throws SpaceException if it was sealed by another JVM (this app restarted since) or is damaged
     */
    public static String open(String token) throws SpaceException {
        if (!isSealed(token)) {
            return token;
        }
        try {
            byte[] all = Base64.getDecoder().decode(token.substring(PREFIX.length()));
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, KEY, new GCMParameterSpec(TAG_BITS, all, 0, IV_BYTES));
            return new String(cipher.doFinal(all, IV_BYTES, all.length - IV_BYTES), StandardCharsets.UTF_8);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new SpaceException("the attach token of this run was kept sealed with a key that lives only in the memory of "
                    + "the app that queued it, and the app has restarted since: submit the run again with the token");
        }
    }

    private static SecretKey newKey() {
        try {
            KeyGenerator generator = KeyGenerator.getInstance("AES");
            generator.init(256, RANDOM);
            return generator.generateKey();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES is part of every JDK: " + e, e);
        }
    }
}
