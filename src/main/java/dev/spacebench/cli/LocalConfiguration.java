package dev.spacebench.cli;

import dev.spacebench.benchmark.StaticSite;
import dev.spacebench.baseline.BaselineService;
import dev.spacebench.compare.CheckService;
import dev.spacebench.live.LiveRuns;
import dev.spacebench.publish.export.RunExporters;
import dev.spacebench.run.RunExecution;
import dev.spacebench.run.RunRepository;
import dev.spacebench.run.RunService;
import dev.spacebench.fleet.RunWorker;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurationExcludeFilter;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.context.TypeExcludeFilter;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.FilterType;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * The command line's own Spring configuration for measuring in this process: the app's components
 * (the web app's configuration class left out, so neither imports the other) and one
 * {@link BenchServices} for {@link LocalBackend}. Not a {@code @Configuration}: the web app's
 * component scan must not pick it up; it is only ever a source of {@code LocalBackend}'s context.
 */
@EnableAutoConfiguration
@EnableScheduling
@ConfigurationPropertiesScan("dev.spacebench")
// Entities and repositories live all over dev.spacebench, not only under cli.
@AutoConfigurationPackage(basePackages = "dev.spacebench")
@ComponentScan(basePackages = "dev.spacebench", excludeFilters = {
        @ComponentScan.Filter(type = FilterType.CUSTOM, classes = TypeExcludeFilter.class),
        @ComponentScan.Filter(type = FilterType.CUSTOM, classes = AutoConfigurationExcludeFilter.class),
        @ComponentScan.Filter(type = FilterType.ANNOTATION, classes = SpringBootConfiguration.class)})
class LocalConfiguration {

    @Bean
    BenchServices benchServices(RunService runs, RunRepository runRepository, RunExecution execution, LiveRuns live,
                                TransactionTemplate transactions, RunWorker worker, BaselineService baselines,
                                CheckService checks, JsonMapper json, RunExporters exporters, StaticSite site) {
        return new BenchServices(runs, runRepository, execution, live, transactions, worker.workerId(), baselines,
                checks, json, exporters, site);
    }
}
