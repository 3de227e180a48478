package dev.spacebench.benchmark;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.HttpHeaders;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** GET /api/site.zip: every benchmark as a static site (see {@link StaticSite}). */
@RestController
@Tag(name = "benchmarks")
public class SiteController {

    private final StaticSite site;

    public SiteController(StaticSite site) {
        this.site = site;
    }

    @GetMapping(value = "/api/site.zip", produces = "application/zip")
    @Operation(summary = "Every benchmark as a static site, zipped: index.html and one folder per slug (relative links only)")
    public void zip(HttpServletResponse response) throws IOException {
        response.setContentType("application/zip");
        response.setHeader(HttpHeaders.CONTENT_DISPOSITION, "attachment; filename=\"spacebench-site.zip\"");
        site.zipTo(response.getOutputStream());
    }
}
