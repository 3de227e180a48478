package dev.spacebench.system;

import jakarta.servlet.DispatcherType;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpMethod;
import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.authentication.ProviderManager;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.AuthenticationEntryPointFailureHandler;
import org.springframework.security.web.authentication.AuthenticationFilter;
import org.springframework.security.web.authentication.preauth.PreAuthenticatedAuthenticationToken;
import org.springframework.security.web.csrf.CsrfFilter;
import org.springframework.security.web.csrf.CsrfTokenRepository;
import org.springframework.security.web.csrf.HttpSessionCsrfTokenRepository;
import org.springframework.security.web.savedrequest.NullRequestCache;

/**
 * Who may do what over HTTP.
 * <ul>
 *   <li>Every request whose {@code Host} is not this app's address is refused ({@link HostCheck}).</li>
 *   <li>Every state change whose {@code Origin} (or {@code Referer}) names another site is refused
 *       ({@link OriginCheck}); the session cookie is {@code SameSite=Strict}.</li>
 *   <li>Everything that changes state (any method but GET, HEAD, OPTIONS) needs a credential: the
 *       API token as {@code Authorization: Bearer …}, or a dashboard session (from the one-time
 *       unlock link or the login form) together with its CSRF token.</li>
 *   <li>Reads (pages, exports, event streams) are open while the app listens on loopback only;
 *       bound to any other address they need a credential too. Health, the login page and the
 *       page's CSS and JS are always open.</li>
 * </ul>
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@EnableConfigurationProperties({SecuritySettings.class, ServedAt.class, DatabaseAt.class})
public class WebSecurity {

    private static final String BEARER = "Bearer ";

    private final String serverAddress;
    private final Path dataDirectory;

    public WebSecurity(ServedAt served, DatabaseAt database) {
        this.serverAddress = served.address();
        this.dataDirectory = DataDirectory.of(database.url());
    }

    @Bean
    ApiToken apiToken(Environment environment) {
        return ApiToken.load(environment.getProperty(ApiToken.VARIABLE), dataDirectory);
    }

    @Bean
    UnlockCodes unlockCodes() {
        return new UnlockCodes();
    }

    // Also keeps Spring Boot from making a user with a generated password.
    @Bean
    AuthenticationManager authenticationManager(ApiToken token) {
        return new ProviderManager(new ApiTokenAuthentication(token));
    }

    @Bean
    ServerAnnouncer serverAnnouncer(ApplicationContext context, ApiToken token, UnlockCodes codes) {
        return new ServerAnnouncer(context, dataDirectory, serverAddress, token, codes);
    }

    @Bean
    FilterRegistrationBean<HostCheck> hostCheck(SecuritySettings settings) {
        FilterRegistrationBean<HostCheck> registration =
                new FilterRegistrationBean<>(new HostCheck(serverAddress, settings.allowedHosts(), new AccessProblems()));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }

    /** After the Host check: a state change whose Origin (or Referer) is another site's is refused. */
    @Bean
    FilterRegistrationBean<OriginCheck> originCheck() {
        FilterRegistrationBean<OriginCheck> registration = new FilterRegistrationBean<>(new OriginCheck(new AccessProblems()));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 1);
        return registration;
    }

    @Bean
    SecurityFilterChain securityFilterChain(HttpSecurity http, AuthenticationManager manager, UnlockCodes codes) throws Exception {
        AccessProblems problems = new AccessProblems();
        CsrfTokenRepository csrfTokens = new HttpSessionCsrfTokenRepository();

        AuthenticationFilter bearer = new AuthenticationFilter(manager, request -> {
            String header = request.getHeader("Authorization");
            return header == null || !header.regionMatches(true, 0, BEARER, 0, BEARER.length()) ? null
                    : new PreAuthenticatedAuthenticationToken("api-token", header.substring(BEARER.length()).strip());
        });
        bearer.setSuccessHandler((request, response, authentication) -> { });
        bearer.setFailureHandler(new AuthenticationEntryPointFailureHandler(problems));

        boolean openReads = loopbackOnly(serverAddress);
        // CSRF guards what a session lets in. A bearer token is never sent by a browser on its own,
        // and a request without a session can only get in with one: neither needs (or should create
        // a session for) a CSRF token.
        http.csrf(csrf -> csrf.csrfTokenRepository(csrfTokens)
                        .requireCsrfProtectionMatcher(request -> CsrfFilter.DEFAULT_CSRF_MATCHER.matches(request)
                                && !hasBearer(request) && request.getSession(false) != null))
                .addFilterBefore(bearer, CsrfFilter.class)
                .addFilterBefore(new UnlockFilter(codes, manager, csrfTokens), CsrfFilter.class)
                .formLogin(form -> form.loginPage(AccessProblems.LOGIN).passwordParameter("token").defaultSuccessUrl("/", true)
                        .failureUrl(AccessProblems.LOGIN + "?error").permitAll())
                .httpBasic(basic -> basic.disable())
                .requestCache(cache -> cache.requestCache(new NullRequestCache()))
                .exceptionHandling(errors -> errors.authenticationEntryPoint(problems).accessDeniedHandler(problems))
                .authorizeHttpRequests(requests -> {
                    // Error pages and the end of an async (event stream) request belong to a request already let in.
                    requests.dispatcherTypeMatchers(DispatcherType.ERROR, DispatcherType.ASYNC).permitAll();
                    requests.requestMatchers("/css/**", "/js/**", "/favicon.ico", "/actuator/health", UnlockFilter.PATH).permitAll();
                    if (openReads) {
                        requests.requestMatchers(HttpMethod.GET).permitAll();
                        requests.requestMatchers(HttpMethod.HEAD).permitAll();
                        requests.requestMatchers(HttpMethod.OPTIONS).permitAll();
                    }
                    requests.anyRequest().authenticated();
                });
        return http.build();
    }

    private static boolean hasBearer(jakarta.servlet.http.HttpServletRequest request) {
        String header = request.getHeader("Authorization");
        return header != null && header.regionMatches(true, 0, BEARER, 0, BEARER.length());
    }

    /** True when {@code server.address} is a loopback address (blank means every interface). */
    static boolean loopbackOnly(String serverAddress) {
        if (serverAddress == null || serverAddress.isBlank()) {
            return false;
        }
        try {
            return InetAddress.getByName(serverAddress.strip()).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
