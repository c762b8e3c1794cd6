package dev.lake.app;

import dev.lake.core.local.LocalKeyRing;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code lake keys rotate}: rotates the local ticket key ring. */
@Command(
    name = "keys",
    mixinStandardHelpOptions = true,
    description = "Manage the ticket key ring.",
    subcommands = {KeysCommand.Rotate.class})
final class KeysCommand implements Runnable {
  @Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  @Command(
      name = "rotate",
      mixinStandardHelpOptions = true,
      description = "Add a new sealing key; the oldest beyond --max-keys is dropped.")
  static final class Rotate implements Callable<Integer> {
    @Spec CommandLine.Model.CommandSpec spec;

    @Option(
        names = "--key-ring",
        defaultValue = ".lake/keyring.json",
        description = "Key ring file.")
    Path keyRing;

    @Option(names = "--max-keys", defaultValue = "4", description = "Keys kept (2-64).")
    int maxKeys;

    @Override
    public Integer call() {
      LocalKeyRing ring = LocalKeyRing.rotate(keyRing, maxKeys);
      spec.commandLine()
          .getOut()
          .println("key ring now holds " + ring.keyIds() + " (newest last seals)");
      return 0;
    }
  }
}
