package dev.spacebench.dashboard;

import dev.spacebench.request.FieldError;
import dev.spacebench.request.InvalidRequestException;
import dev.spacebench.run.Run;
import dev.spacebench.run.RunService;
import dev.spacebench.run.RunStateException;
import dev.spacebench.space.Spaces;
import jakarta.servlet.http.HttpServletResponse;
import java.util.List;
import java.util.Map;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.security.authentication.AuthenticationTrustResolver;
import org.springframework.security.authentication.AuthenticationTrustResolverImpl;
import org.springframework.security.core.Authentication;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.validation.BindingResult;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.view.RedirectView;

/**
 * The dashboard at {@code /}: start a run, watch the queue and running runs, read the latest
 * results. Plain HTML forms (POST, then a 303 redirect), so it works without JavaScript;
 * {@code /js/dashboard.js} adds live progress.
 */
@Controller
@ConditionalOnWebApplication
public class DashboardController {

    private static final AuthenticationTrustResolver TRUST = new AuthenticationTrustResolverImpl();

    private final RunService runs;
    private final DashboardData data;
    private final Spaces spaces;

    public DashboardController(RunService runs, DashboardData data, Spaces spaces) {
        this.runs = runs;
        this.data = data;
        this.spaces = spaces;
    }

    /**
     * @param load present when the form's "Use preset" button sent it here: the plan numbers are
     *     replaced by the chosen preset's, the Space part kept
     * @param queued a run just queued from the form, for the notice
     * @param cancelled a run whose cancel was just asked for, for the notice
     * @param finished a run the cancel came too late for, for the notice
     * @param checking present after "Check kinds again", for the notice
     * @param refresh seconds between reloads for browsers without JavaScript (1 to 3600)
     */
    @GetMapping("/")
    public String dashboard(@ModelAttribute("form") RunForm form, BindingResult ignoredBinding,
                            @RequestParam(required = false) String load, @RequestParam(required = false) Long queued,
                            @RequestParam(required = false) Long cancelled, @RequestParam(required = false) Long finished,
                            @RequestParam(required = false) Integer refresh,
                            @RequestParam(required = false) String checking, Authentication authentication, Model model) {
        lockState(authentication, model);
        RunForm shown = load != null || form.planUnset()
                ? data.freshForm(form.kind(), form.cpus(), form.memoryMiB(), form.preset()).withTarget(form.name(), form.channels()) : form;
        data.fill(model, shown, Map.of(), checking != null ? "Checking every kind again: each shows “checking…” until "
                + "its check has made a Space of it (or could not); reload to see." : notice(queued, cancelled, finished),
                refresh == null ? null : Math.max(1, Math.min(3600, refresh)));
        return "dashboard";
    }

    /** The live part of the dashboard alone, for the script to swap in when runs come and go. */
    @GetMapping("/dashboard/live")
    public String live(Model model) {
        model.addAttribute("live", data.live());
        return "dashboard :: live";
    }

    /** Queues the run the form describes; on bad input shows the form again (400) with each error beside its input. */
    @PostMapping(value = "/runs", consumes = MediaType.APPLICATION_FORM_URLENCODED_VALUE)
    public Object start(@ModelAttribute("form") RunForm form, BindingResult binding, Authentication authentication, Model model,
                        HttpServletResponse response) {
        lockState(authentication, model);
        List<FieldError> unreadable = form.readErrors(binding);
        try {
            if (!unreadable.isEmpty()) {
                // Every mistake at once: what could not be read, and what is out of range among the rest.
                throw new InvalidRequestException(FormErrors.withRangeErrors(unreadable, runs.check(form.toRequest()),
                        form.sizePositions()));
            }
            Run run = runs.submit(form.toRequest());
            return see("/?queued=" + run.getId() + "#run-" + run.getId());
        } catch (InvalidRequestException e) {
            response.setStatus(HttpStatus.BAD_REQUEST.value());
            data.fill(model, form, FormErrors.byField(e.errors()), null, null);
            return "dashboard";
        }
    }

    /** Checks every kind of Space again, in the background (what {@code POST /api/kinds/check} does). */
    @PostMapping("/kinds/check")
    public RedirectView checkKinds() {
        spaces.checkKindsAgain();
        return see("/?checking");
    }

    @PostMapping("/runs/{id}/cancel")
    public RedirectView cancel(@PathVariable long id) {
        try {
            runs.cancel(id);
            return see("/?cancelled=" + id);
        } catch (RunStateException e) {
            return see("/?finished=" + id);
        }
    }

    /** Whether this browser may start and cancel runs (a session from the unlock link or the login form), for the page to say. */
    private static void lockState(Authentication authentication, Model model) {
        model.addAttribute("unlocked", TRUST.isAuthenticated(authentication));
    }

    private static String notice(Long queued, Long cancelled, Long finished) {
        if (queued != null) {
            return "Run #" + queued + " queued.";
        }
        if (cancelled != null) {
            return "Cancel asked for run #" + cancelled + ": a running run stops at its next iteration and keeps its samples.";
        }
        if (finished != null) {
            return "Run #" + finished + " had already finished; there was nothing to cancel.";
        }
        return null;
    }

    // 303: the browser follows with a GET, so a reload never posts the form again.
    private static RedirectView see(String url) {
        RedirectView view = new RedirectView(url, true);
        view.setStatusCode(HttpStatus.SEE_OTHER);
        return view;
    }
}
