package dev.spacebench.system;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.List;
import org.springframework.http.HttpMethod;
import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.web.authentication.AbstractAuthenticationProcessingFilter;
import org.springframework.security.web.authentication.SimpleUrlAuthenticationFailureHandler;
import org.springframework.security.web.authentication.SimpleUrlAuthenticationSuccessHandler;
import org.springframework.security.web.authentication.session.ChangeSessionIdAuthenticationStrategy;
import org.springframework.security.web.authentication.session.CompositeSessionAuthenticationStrategy;
import org.springframework.security.web.context.HttpSessionSecurityContextRepository;
import org.springframework.security.web.csrf.CsrfAuthenticationStrategy;
import org.springframework.security.web.csrf.CsrfTokenRepository;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;

/**
 * {@code GET /unlock?code=…}: the one-time link the start message prints. A code that has not
 * been used gives this browser a session (a new session id, a new CSRF token) and sends it to the
 * dashboard; a used or unknown one sends it to the login page, which says so.
 */
final class UnlockFilter extends AbstractAuthenticationProcessingFilter {

    static final String PATH = "/unlock";

    private final UnlockCodes codes;

    UnlockFilter(UnlockCodes codes, AuthenticationManager manager, CsrfTokenRepository csrfTokens) {
        super(PathPatternRequestMatcher.withDefaults().matcher(HttpMethod.GET, PATH), manager);
        this.codes = codes;
        setSecurityContextRepository(new HttpSessionSecurityContextRepository());
        setSessionAuthenticationStrategy(new CompositeSessionAuthenticationStrategy(
                List.of(new ChangeSessionIdAuthenticationStrategy(), new CsrfAuthenticationStrategy(csrfTokens))));
        SimpleUrlAuthenticationSuccessHandler toDashboard = new SimpleUrlAuthenticationSuccessHandler("/");
        toDashboard.setAlwaysUseDefaultTargetUrl(true);
        setAuthenticationSuccessHandler(toDashboard);
        setAuthenticationFailureHandler(new SimpleUrlAuthenticationFailureHandler(AccessProblems.LOGIN + "?link=used"));
    }

    @Override
    public Authentication attemptAuthentication(HttpServletRequest request, HttpServletResponse response) {
        if (!codes.redeem(request.getParameter("code"))) {
            throw new BadCredentialsException("this unlock link has been used already, or is not this server's");
        }
        return UsernamePasswordAuthenticationToken.authenticated("dashboard", null, ApiTokenAuthentication.OPERATOR);
    }
}
