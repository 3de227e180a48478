package dev.spacebench.benchmark;

import org.springframework.http.HttpStatus;
import org.springframework.web.server.ResponseStatusException;

/** No benchmark has this slug: 404 (problem+json on REST, the HTML error page for browsers). */
public class BenchmarkNotFoundException extends ResponseStatusException {

    public BenchmarkNotFoundException(String slug) {
        super(HttpStatus.NOT_FOUND, "no benchmark has the slug " + slug);
    }
}
