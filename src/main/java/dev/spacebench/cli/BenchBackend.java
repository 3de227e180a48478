package dev.spacebench.cli;

import dev.spacebench.live.LiveRun;
import dev.spacebench.run.RunRequest;
import java.nio.file.Path;
import java.util.function.Consumer;

/** Where the bench command's run happens: in this process on the database, or on a server through REST. */
interface BenchBackend extends AutoCloseable {

    /** Says where the run is measured, for the first line the command prints. */
    String where();

    /**
     * Queues the run so that this backend's measurer, and no other, takes it.
     *
     * @return the run's id
     * @throws BenchException when the request is refused (each bad field named) or the server unreachable
     */
    long submit(RunRequest request);

    /**
     * Follows the run until it has finished, passing each new state to {@code progress}.
     *
     * @return the final state
     */
    LiveRun follow(long id, Consumer<LiveRun> progress) throws InterruptedException;

    /**
     * @throws BenchException when there is no baseline of this name (asked before measuring, so
     *     a typo costs no run)
     */
    void requireBaseline(String name);

    /**
     * The regression check of a finished run, exactly as {@code GET /api/runs/{id}/check} answers it.
     *
     * @return the check as JSON text (what check.json holds)
     * @throws BenchException when the check cannot be made (e.g. the baseline has no figure for
     *     any metric the run measured)
     */
    String check(long id, BaselineCheck check);

    /** Writes result.json, samples.csv and page.md, as the REST exports serve them, into {@code dir}. */
    void export(long id, Path dir);

    /**
     * Writes every published benchmark as a static site into {@code dir} (the files
     * {@code GET /api/site.zip} holds).
     *
     * @return how many benchmarks it holds
     * @throws BenchException when the site cannot be read or written
     */
    int publishSite(Path dir);

    /**
     * Asks for a run that is still going to be cancelled (Ctrl-C): it stops at its next
     * iteration, deletes its Space, keeps its samples and ends CANCELLED. Never throws.
     */
    void cancel(long id);

    @Override
    void close();
}
