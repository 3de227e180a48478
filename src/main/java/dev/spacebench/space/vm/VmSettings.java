package dev.spacebench.space.vm;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code spacebench.space.vm.*}; blank means the default each names.
 *
 * @param qemu the QEMU program; default {@code qemu-system-x86_64}
 * @param kernel the guest kernel (blank: what src/vm/fetch-guest.sh fetched, else the host's own)
 * @param modules its lib/modules/VERSION directory
 * @param busybox a static busybox (blank: busybox on PATH)
 * @param accel kvm, tcg or auto (the default)
 */
@ConfigurationProperties("spacebench.space.vm")
public record VmSettings(@DefaultValue("qemu-system-x86_64") String qemu, String kernel, String modules, String busybox,
                         @DefaultValue("auto") String accel) {
}
