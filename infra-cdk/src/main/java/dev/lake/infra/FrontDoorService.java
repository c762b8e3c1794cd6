package dev.lake.infra;

import io.github.cdklabs.cdknag.NagPackSuppression;
import io.github.cdklabs.cdknag.NagSuppressions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.applicationautoscaling.EnableScalingProps;
import software.amazon.awscdk.services.ec2.Peer;
import software.amazon.awscdk.services.ec2.Port;
import software.amazon.awscdk.services.ec2.SecurityGroup;
import software.amazon.awscdk.services.ec2.SubnetSelection;
import software.amazon.awscdk.services.ec2.SubnetType;
import software.amazon.awscdk.services.ec2.Vpc;
import software.amazon.awscdk.services.ecr.IRepository;
import software.amazon.awscdk.services.ecs.AwsLogDriverProps;
import software.amazon.awscdk.services.ecs.Cluster;
import software.amazon.awscdk.services.ecs.ContainerDefinitionOptions;
import software.amazon.awscdk.services.ecs.ContainerImage;
import software.amazon.awscdk.services.ecs.ContainerInsights;
import software.amazon.awscdk.services.ecs.CpuArchitecture;
import software.amazon.awscdk.services.ecs.CpuUtilizationScalingProps;
import software.amazon.awscdk.services.ecs.DeploymentCircuitBreaker;
import software.amazon.awscdk.services.ecs.FargateService;
import software.amazon.awscdk.services.ecs.FargateTaskDefinition;
import software.amazon.awscdk.services.ecs.LoadBalancerTargetOptions;
import software.amazon.awscdk.services.ecs.LogDriver;
import software.amazon.awscdk.services.ecs.MemoryUtilizationScalingProps;
import software.amazon.awscdk.services.ecs.OperatingSystemFamily;
import software.amazon.awscdk.services.ecs.PortMapping;
import software.amazon.awscdk.services.ecs.RuntimePlatform;
import software.amazon.awscdk.services.ecs.ScalableTaskCount;
import software.amazon.awscdk.services.ecs.Secret;
import software.amazon.awscdk.services.elasticloadbalancingv2.AddNetworkTargetsProps;
import software.amazon.awscdk.services.elasticloadbalancingv2.AlpnPolicy;
import software.amazon.awscdk.services.elasticloadbalancingv2.BaseNetworkListenerProps;
import software.amazon.awscdk.services.elasticloadbalancingv2.HealthCheck;
import software.amazon.awscdk.services.elasticloadbalancingv2.ListenerCertificate;
import software.amazon.awscdk.services.elasticloadbalancingv2.NetworkListener;
import software.amazon.awscdk.services.elasticloadbalancingv2.NetworkLoadBalancer;
import software.amazon.awscdk.services.elasticloadbalancingv2.NetworkTargetGroup;
import software.amazon.awscdk.services.elasticloadbalancingv2.Protocol;
import software.amazon.awscdk.services.elasticloadbalancingv2.SslPolicy;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.secretsmanager.ISecret;
import software.constructs.Construct;

/**
 * The front door: {@code bin/lake serve} as a Fargate service in private subnets behind a Network
 * Load Balancer whose TLS listener (ALPN h2 only, for gRPC; the ACM certificate clients verify)
 * terminates TLS and opens a second TLS connection to the task (a TLS target group): the task
 * serves TLS with the certificate and key of the {@code TaskTlsSecretArn} secret. The load balancer
 * encrypts that hop but does not verify the task's certificate (NLB TLS target groups never do);
 * only the VPC's range may reach the task port. The Prometheus endpoint stays on the task's
 * loopback (anonymous plaintext; operator metrics are the CloudWatch ones). The task's TLS key and
 * an Iceberg OAuth2 credential reach the container as ECS secrets read by the task's execution
 * role; the principals secret alone is read by the task role, because {@code serve} polls its
 * version ({@code --principals-secret}) so a rotated token needs no redeploy.
 */
final class FrontDoorService extends Construct {
  static final String CONTAINER = "frontdoor";
  static final int TLS_PORT = 443;

  final FargateService service;
  final FargateTaskDefinition task;
  final NetworkLoadBalancer loadBalancer;
  final NetworkTargetGroup targets;
  final LogGroup logs;

  FrontDoorService(
      Construct scope,
      String id,
      LakeSettings settings,
      Vpc vpc,
      LakeData data,
      IRepository repository,
      String imageTag,
      String certificateArn,
      ISecret taskTls,
      Optional<ISecret> icebergOAuth2,
      Map<String, String> sharedEnvironment) {
    super(scope, id);
    logs = LakeData.logGroup(this, "Logs");
    Cluster cluster =
        Cluster.Builder.create(this, "Cluster")
            .vpc(vpc)
            .containerInsightsV2(ContainerInsights.ENABLED)
            .build();
    task =
        FargateTaskDefinition.Builder.create(this, "Task")
            .cpu(settings.frontDoorCpu())
            .memoryLimitMiB(settings.frontDoorMemoryMiB())
            .runtimePlatform(
                RuntimePlatform.builder()
                    .cpuArchitecture(CpuArchitecture.X86_64)
                    .operatingSystemFamily(OperatingSystemFamily.LINUX)
                    .build())
            .build();
    Map<String, String> environment = new java.util.TreeMap<>(sharedEnvironment);
    environment.put(LakeEnv.HOST, "0.0.0.0");
    environment.put(LakeEnv.PORT, Integer.toString(settings.frontDoorPort()));
    environment.put(LakeEnv.DURABLE, "aws");
    environment.put(LakeEnv.SPILL_DIR, "/tmp/lake-spill");
    // engine processes: 4 pools of an eighth of the task in all, each process capped at an eighth
    // of the task (4 × 1/8 + a spare's ~0.3 GiB, beside the front door's own quarter-heap JVM)
    environment.put(LakeEnv.ENGINE_MEMORY_MB, Integer.toString(settings.frontDoorMemoryMiB() / 8));
    environment.put(LakeEnv.ENGINE_MEMORY_POOLS, "4");
    environment.put(
        LakeEnv.ENGINE_PROCESS_CEILING_MB, Integer.toString(settings.frontDoorMemoryMiB() / 8));
    // loopback only (the endpoint is anonymous): a collector sidecar in the task may scrape it
    environment.put(LakeEnv.METRICS_HOST, "127.0.0.1");
    environment.put(LakeEnv.METRICS_PORT, Integer.toString(settings.metricsPort()));
    // the task reads the principals secret itself and polls its version: rotation needs no deploy
    environment.put(LakeEnv.PRINCIPALS_SECRET, data.principals.getSecretArn());
    Map<String, Secret> secrets = new java.util.TreeMap<>();
    secrets.put(LakeEnv.TLS_CERT_PEM, Secret.fromSecretsManager(taskTls, "cert"));
    secrets.put(LakeEnv.TLS_KEY_PEM, Secret.fromSecretsManager(taskTls, "key"));
    icebergOAuth2.ifPresent(
        o -> secrets.put(LakeEnv.ICEBERG_OAUTH2_CREDENTIAL, Secret.fromSecretsManager(o)));
    task.addContainer(
        CONTAINER,
        ContainerDefinitionOptions.builder()
            .image(ContainerImage.fromEcrRepository(repository, imageTag))
            .environment(environment)
            .secrets(secrets)
            .logging(
                LogDriver.awsLogs(
                    AwsLogDriverProps.builder().logGroup(logs).streamPrefix(CONTAINER).build()))
            .portMappings(
                List.of(PortMapping.builder().containerPort(settings.frontDoorPort()).build()))
            .stopTimeout(Duration.seconds(60))
            .build());
    data.principals.grantRead(task.getTaskRole());
    SecurityGroup group =
        SecurityGroup.Builder.create(this, "Tasks")
            .vpc(vpc)
            .description("lake front door tasks: Flight over TLS from the load balancer")
            .allowAllOutbound(true)
            .build();
    // NLB targets of type IP see the load balancer's private addresses: the VPC range suffices
    group.addIngressRule(
        Peer.ipv4(LakeStack.VPC_CIDR),
        Port.tcp(settings.frontDoorPort()),
        "Flight (HTTP/2 over TLS) from the load balancer");
    service =
        FargateService.Builder.create(this, "Service")
            .cluster(cluster)
            .taskDefinition(task)
            .desiredCount(settings.frontDoorMinTasks())
            .minHealthyPercent(100)
            .maxHealthyPercent(200)
            .circuitBreaker(DeploymentCircuitBreaker.builder().enable(true).rollback(true).build())
            .vpcSubnets(
                SubnetSelection.builder().subnetType(SubnetType.PRIVATE_WITH_EGRESS).build())
            .securityGroups(List.of(group))
            .assignPublicIp(false)
            .build();
    ScalableTaskCount scaling =
        service.autoScaleTaskCount(
            EnableScalingProps.builder()
                .minCapacity(settings.frontDoorMinTasks())
                .maxCapacity(settings.frontDoorMaxTasks())
                .build());
    scaling.scaleOnCpuUtilization(
        "Cpu",
        CpuUtilizationScalingProps.builder()
            .targetUtilizationPercent(60)
            .scaleOutCooldown(Duration.minutes(1))
            .scaleInCooldown(Duration.minutes(5))
            .build());
    scaling.scaleOnMemoryUtilization(
        "Memory",
        MemoryUtilizationScalingProps.builder()
            .targetUtilizationPercent(70)
            .scaleOutCooldown(Duration.minutes(1))
            .scaleInCooldown(Duration.minutes(5))
            .build());
    loadBalancer =
        NetworkLoadBalancer.Builder.create(this, "LoadBalancer")
            .vpc(vpc)
            .internetFacing(settings.internetFacing())
            .crossZoneEnabled(true)
            .build();
    loadBalancer.logAccessLogs(data.accessLogs, "nlb");
    NetworkListener listener =
        loadBalancer.addListener(
            "Tls",
            BaseNetworkListenerProps.builder()
                .port(TLS_PORT)
                .protocol(Protocol.TLS)
                .certificates(List.of(ListenerCertificate.fromArn(certificateArn)))
                .sslPolicy(SslPolicy.RECOMMENDED_TLS)
                .alpnPolicy(AlpnPolicy.HTTP2_ONLY)
                .build());
    targets =
        listener.addTargets(
            "FrontDoor",
            AddNetworkTargetsProps.builder()
                .port(settings.frontDoorPort())
                .protocol(Protocol.TLS)
                .targets(
                    List.of(
                        service.loadBalancerTarget(
                            LoadBalancerTargetOptions.builder()
                                .containerName(CONTAINER)
                                .containerPort(settings.frontDoorPort())
                                .build())))
                .healthCheck(
                    HealthCheck.builder()
                        .protocol(Protocol.TCP)
                        .interval(Duration.seconds(10))
                        .healthyThresholdCount(2)
                        .unhealthyThresholdCount(2)
                        .build())
                // in-flight streams get this long to finish when a task leaves
                .deregistrationDelay(Duration.seconds(60))
                .build());
    NagSuppressions.addResourceSuppressions(
        task,
        List.of(
            NagPackSuppression.builder()
                .id("AwsSolutions-ECS2")
                .reason(
                    "The environment holds only resource names and settings (LAKE_*, the"
                        + " principals secret's ARN); the task TLS key and an Iceberg credential"
                        + " are injected from Secrets Manager.")
                .build()),
        true);
  }
}
