package dev.spacebench.cli;

import dev.spacebench.benchmark.StaticSite;
import dev.spacebench.baseline.BaselineService;
import dev.spacebench.compare.CheckService;
import dev.spacebench.live.LiveRuns;
import dev.spacebench.publish.export.RunExporters;
import dev.spacebench.run.RunExecution;
import dev.spacebench.run.RunRepository;
import dev.spacebench.run.RunService;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * What {@link LocalBackend} uses of the app, injected in one piece by {@link LocalConfiguration}
 * rather than looked up bean by bean.
 *
 * @param workerId the id of this process's worker (its own worker stays off)
 */
record BenchServices(RunService runs, RunRepository runRepository, RunExecution execution, LiveRuns live,
                     TransactionTemplate transactions, String workerId, BaselineService baselines, CheckService checks,
                     JsonMapper json, RunExporters exporters, StaticSite site) {
}
