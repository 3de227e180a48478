package dev.spacebench.baseline;

import java.util.List;
import java.util.Optional;
import org.springframework.data.jpa.repository.JpaRepository;

public interface BaselineRepository extends JpaRepository<Baseline, Long> {

    Optional<Baseline> findByName(String name);

    boolean existsByName(String name);

    List<Baseline> findAllByOrderByCreatedAtDesc();
}
