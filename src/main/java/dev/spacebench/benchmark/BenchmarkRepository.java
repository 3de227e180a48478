package dev.spacebench.benchmark;

import java.util.List;
import java.util.Optional;
import org.springframework.data.jpa.repository.JpaRepository;

public interface BenchmarkRepository extends JpaRepository<Benchmark, Long> {

    Optional<Benchmark> findBySlug(String slug);

    List<Benchmark> findAllByOrderBySlugAsc();
}
