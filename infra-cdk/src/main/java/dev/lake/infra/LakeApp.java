package dev.lake.infra;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.Environment;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.cxapi.CloudAssembly;
import software.amazon.awscdk.cxapi.CloudFormationStackArtifact;
import software.amazon.awscdk.cxapi.SynthesisMessage;
import software.amazon.awscdk.cxapi.SynthesisMessageLevel;

/**
 * The CDK app: {@code cdk deploy} runs it through {@code cdk.json}; {@code bin/lake cdk synth
 * [--out DIR]} runs it directly and prints the template paths. The stack names no account (it comes
 * from the deploying credentials), so synthesis works offline.
 */
public final class LakeApp {
  static final String STACK_NAME = "Lake";

  private LakeApp() {}

  public static void main(String[] args) {
    Path out = null;
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--out") && i + 1 < args.length) {
        out = Path.of(args[++i]);
      } else {
        System.err.println("usage: LakeApp [--out DIR]");
        System.exit(2);
      }
    }
    try {
      synth(out, System.out);
    } catch (IllegalArgumentException e) {
      System.err.println("lake cdk: " + e.getMessage());
      System.exit(2);
    } catch (IllegalStateException e) {
      System.err.println("lake cdk: " + e.getMessage());
      System.exit(1);
    }
  }

  /**
   * Synthesizes into {@code out} (null: the CDK's own choice, {@code CDK_OUTDIR} under the CLI) and
   * prints one template path per stack.
   */
  static CloudAssembly synth(Path out, PrintStream print) {
    AppProps.Builder props = AppProps.builder();
    if (out != null) {
      props.outdir(out.toAbsolutePath().toString());
    }
    App app = new App(props.build());
    build(app);
    CloudAssembly assembly = app.synth();
    List<String> errors = new ArrayList<>();
    for (CloudFormationStackArtifact stack : assembly.getStacks()) {
      for (SynthesisMessage m : stack.getMessages()) {
        if (m.getLevel() == SynthesisMessageLevel.ERROR) {
          errors.add(m.getId() + ": " + m.getEntry().getData());
        }
      }
    }
    if (!errors.isEmpty()) {
      throw new IllegalStateException(
          errors.size()
              + " synthesis error(s) (cdk-nag findings are errors):\n  "
              + String.join("\n  ", errors));
    }
    for (CloudFormationStackArtifact stack : assembly.getStacks()) {
      print.println(stack.getTemplateFullPath());
    }
    return assembly;
  }

  /** The stack with its settings from {@code lake:*} context, checked by cdk-nag. */
  static LakeStack build(App app) {
    LakeSettings settings = LakeSettings.fromContext(app.getNode()::tryGetContext);
    // a second stack name (-c lake:stackName=LakeGreen) is a green deployment beside the blue one
    Object name = app.getNode().tryGetContext("lake:stackName");
    LakeStack stack =
        new LakeStack(
            app,
            name == null || name.toString().isBlank() ? STACK_NAME : name.toString().trim(),
            StackProps.builder()
                .description("lake: read-only Arrow Flight SQL service over data-lake tables")
                .env(Environment.builder().region(region(app)).build())
                .build(),
            settings);
    LakeNag.check(app);
    return stack;
  }

  /**
   * The region: context {@code lake:region}, else the CLI's {@code CDK_DEFAULT_REGION}, else
   * us-east-1. Load-balancer access logging needs a concrete region; the account stays open (taken
   * from the deploying credentials), so synthesis needs no AWS account.
   */
  static String region(App app) {
    Object context = app.getNode().tryGetContext("lake:region");
    if (context != null && !context.toString().isBlank()) {
      return context.toString().trim();
    }
    String cli = System.getenv("CDK_DEFAULT_REGION");
    return cli == null || cli.isBlank() ? "us-east-1" : cli;
  }
}
