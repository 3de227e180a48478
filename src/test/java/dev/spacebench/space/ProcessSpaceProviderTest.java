package dev.spacebench.space;

import java.nio.file.Path;

class ProcessSpaceProviderTest extends LocalSpaceContract {

    @Override
    SpaceProvider provider(Path root) {
        return new ProcessSpaceProvider(root);
    }
}
