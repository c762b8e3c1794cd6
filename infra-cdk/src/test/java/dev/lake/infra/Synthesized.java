package dev.lake.infra;

import software.amazon.awscdk.App;
import software.amazon.awscdk.assertions.Annotations;
import software.amazon.awscdk.assertions.Template;

/**
 * The stack synthesized once per test JVM (a synthesis costs seconds of node time): every test
 * class reads the same template and annotations.
 */
final class Synthesized {
  private static Synthesized instance;

  final LakeStack stack;
  final Template template;
  final Annotations annotations;

  private Synthesized() {
    App app = new App();
    stack = LakeApp.build(app);
    template = Template.fromStack(stack);
    annotations = Annotations.fromStack(stack);
  }

  static synchronized Synthesized get() {
    if (instance == null) {
      instance = new Synthesized();
    }
    return instance;
  }
}
