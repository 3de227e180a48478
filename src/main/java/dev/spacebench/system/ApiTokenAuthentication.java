package dev.spacebench.system;

import java.util.List;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.web.authentication.preauth.PreAuthenticatedAuthenticationToken;

/**
 * Checks a presented API token: from {@code Authorization: Bearer …} (a
 * {@link PreAuthenticatedAuthenticationToken}, for this request only) or from the login form's
 * {@code token} field (a {@link UsernamePasswordAuthenticationToken}, kept in the session).
 */
final class ApiTokenAuthentication implements AuthenticationProvider {

    static final List<GrantedAuthority> OPERATOR = List.of(new SimpleGrantedAuthority("ROLE_OPERATOR"));

    private final ApiToken token;

    ApiTokenAuthentication(ApiToken token) {
        this.token = token;
    }

    @Override
    public Authentication authenticate(Authentication presented) {
        if (!token.matches(presented.getCredentials() == null ? null : presented.getCredentials().toString())) {
            throw new BadCredentialsException("not this server's API token");
        }
        return presented instanceof PreAuthenticatedAuthenticationToken
                ? new PreAuthenticatedAuthenticationToken("api-token", null, OPERATOR)
                : UsernamePasswordAuthenticationToken.authenticated("dashboard", null, OPERATOR);
    }

    @Override
    public boolean supports(Class<?> type) {
        return PreAuthenticatedAuthenticationToken.class.isAssignableFrom(type)
                || UsernamePasswordAuthenticationToken.class.isAssignableFrom(type);
    }
}
