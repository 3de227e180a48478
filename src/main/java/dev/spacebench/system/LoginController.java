package dev.spacebench.system;

import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.security.authentication.AuthenticationTrustResolverImpl;
import org.springframework.security.core.Authentication;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * {@code GET /login}: the form that unlocks the dashboard with the API token (for when the
 * one-time link printed at start has been used). Spring Security handles its {@code POST /login}.
 */
@Controller
@ConditionalOnWebApplication
public class LoginController {

    /** @param then where to return once unlocked (see {@link ReturnTo}); anything but a path of this app is the dashboard */
    @GetMapping(AccessProblems.LOGIN)
    public String login(Authentication authentication, @RequestParam(name = ReturnTo.PARAMETER, required = false) String then,
                        Model model) {
        model.addAttribute("unlocked", new AuthenticationTrustResolverImpl().isAuthenticated(authentication));
        String target = ReturnTo.safe(then);
        model.addAttribute("then", target);
        model.addAttribute("formKept", target.startsWith("/?"));
        model.addAttribute("tokenFile", ApiToken.FILE_NAME);
        model.addAttribute("tokenVariable", ApiToken.VARIABLE);
        return "login";
    }
}
