package dev.spacebench.system;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Caps every request body at {@value #MAX_BODY_BYTES} bytes (16 MiB: a result.json import is the
 * largest body the API takes, and far smaller). A declared longer body is refused at once with 413
 * problem+json; a chunked one fails once it passes the cap while being read
 * ({@link BodyTooLargeException}, answered 413 by {@link ApiProblems}).
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
public class RequestBodyLimit extends OncePerRequestFilter {

    public static final long MAX_BODY_BYTES = 16L << 20;

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getContentLengthLong() > MAX_BODY_BYTES) {
            response.setStatus(HttpStatus.CONTENT_TOO_LARGE.value());
            response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
            response.setHeader("Connection", "close");
            response.getWriter().write(tooLargeJson(request.getContentLengthLong()));
            return;
        }
        chain.doFilter(request.getContentLengthLong() < 0 ? new Capped(request) : request, response);
    }

    /** The problem+json of a refused body, naming the field and the limit. */
    static String tooLargeJson(long length) {
        String message = "must be at most " + MAX_BODY_BYTES + " bytes (16 MiB)" + (length >= 0 ? ", was " + length : "");
        return "{\"type\":\"about:blank\",\"title\":\"Request body too large\",\"status\":413,\"detail\":\"body: " + message
                + "\",\"errors\":[{\"field\":\"body\",\"message\":\"" + message + "\"}]}";
    }

    /** A request whose body stream fails once more than the cap has been read. */
    private static final class Capped extends HttpServletRequestWrapper {

        private ServletInputStream stream;

        Capped(HttpServletRequest request) {
            super(request);
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                stream = new CountingStream(super.getInputStream());
            }
            return stream;
        }
    }

    private static final class CountingStream extends ServletInputStream {

        private final ServletInputStream in;
        private long count;

        CountingStream(ServletInputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = in.read(buffer, offset, length);
            if (n > 0) {
                count(n);
            }
            return n;
        }

        private void count(int n) throws BodyTooLargeException {
            count += n;
            if (count > MAX_BODY_BYTES) {
                throw new BodyTooLargeException(MAX_BODY_BYTES);
            }
        }

        @Override
        public boolean isFinished() {
            return in.isFinished();
        }

        @Override
        public boolean isReady() {
            return in.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            in.setReadListener(listener);
        }
    }
}
