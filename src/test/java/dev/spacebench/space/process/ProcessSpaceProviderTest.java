package dev.spacebench.space.process;

import dev.spacebench.space.SpaceProvider;
import dev.spacebench.space.local.LocalSpaceContract;
import java.nio.file.Path;

class ProcessSpaceProviderTest extends LocalSpaceContract {

    @Override
    protected SpaceProvider provider(Path root) {
        return new ProcessSpaceProvider(root);
    }
}
