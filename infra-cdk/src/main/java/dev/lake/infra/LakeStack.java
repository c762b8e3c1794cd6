package dev.lake.infra;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.CfnParameter;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.services.ec2.FlowLogDestination;
import software.amazon.awscdk.services.ec2.FlowLogOptions;
import software.amazon.awscdk.services.ec2.FlowLogTrafficType;
import software.amazon.awscdk.services.ec2.GatewayVpcEndpointAwsService;
import software.amazon.awscdk.services.ec2.GatewayVpcEndpointOptions;
import software.amazon.awscdk.services.ec2.IpAddresses;
import software.amazon.awscdk.services.ec2.SubnetConfiguration;
import software.amazon.awscdk.services.ec2.SubnetType;
import software.amazon.awscdk.services.ec2.Vpc;
import software.amazon.awscdk.services.ecr.IRepository;
import software.amazon.awscdk.services.ecr.Repository;
import software.amazon.awscdk.services.iam.IGrantable;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.secretsmanager.ISecret;
import software.amazon.awscdk.services.secretsmanager.Secret;
import software.constructs.Construct;

/**
 * lake's production stack. Images are pulled from ECR by repository name and tag (stack
 * parameters), so synthesis needs neither Docker nor an AWS account; the TLS certificate is an ACM
 * certificate ARN (parameter). Permissions are granted resource by resource (no hand-written
 * policy): the worker never reads the principals secret, the front door never writes result parts.
 */
public final class LakeStack extends Stack {
  /** The VPC's range, a literal so security-group rules (and cdk-nag) can name it. */
  static final String VPC_CIDR = "10.40.0.0/16";

  final LakeSettings settings;
  final Vpc vpc;
  final LakeData data;
  final FrontDoorService frontDoor;
  final WorkerFunction worker;
  final LakeMonitoring monitoring;

  public LakeStack(Construct scope, String id, StackProps props, LakeSettings settings) {
    super(scope, id, props);
    this.settings = settings;
    CfnParameter certificate =
        parameter("CertificateArn", "ACM certificate ARN for the load balancer's TLS listener");
    CfnParameter taskTls =
        parameter(
            "TaskTlsSecretArn",
            "Secrets Manager secret (JSON keys cert, key: PEM chain and PKCS#8 key) the front-door"
                + " tasks serve TLS with to the load balancer");
    DataAccess access = DataAccess.fromContext(getNode()::tryGetContext);
    CfnParameter frontDoorRepo =
        parameter("FrontDoorRepository", "ECR repository of the front-door image");
    CfnParameter frontDoorTag = parameter("FrontDoorImageTag", "tag of the front-door image");
    CfnParameter workerRepo = parameter("WorkerRepository", "ECR repository of the worker image");
    CfnParameter workerTag = parameter("WorkerImageTag", "tag of the worker image");

    LogGroup flowLogs = LakeData.logGroup(this, "FlowLogs");
    vpc =
        Vpc.Builder.create(this, "Vpc")
            .ipAddresses(IpAddresses.cidr(VPC_CIDR))
            .maxAzs(2)
            .natGateways(1)
            .subnetConfiguration(
                List.of(
                    SubnetConfiguration.builder()
                        .name("public")
                        .subnetType(SubnetType.PUBLIC)
                        .cidrMask(24)
                        .build(),
                    SubnetConfiguration.builder()
                        .name("private")
                        .subnetType(SubnetType.PRIVATE_WITH_EGRESS)
                        .cidrMask(20)
                        .build()))
            // S3 and DynamoDB traffic stays off the NAT gateway
            .gatewayEndpoints(
                Map.of(
                    "S3",
                    GatewayVpcEndpointOptions.builder()
                        .service(GatewayVpcEndpointAwsService.S3)
                        .build(),
                    "DynamoDb",
                    GatewayVpcEndpointOptions.builder()
                        .service(GatewayVpcEndpointAwsService.DYNAMODB)
                        .build()))
            .flowLogs(
                Map.of(
                    "FlowLogs",
                    FlowLogOptions.builder()
                        .destination(FlowLogDestination.toCloudWatchLogs(flowLogs))
                        .trafficType(FlowLogTrafficType.ALL)
                        .build()))
            .build();
    data = new LakeData(this, "Data", settings);

    Map<String, String> shared = new TreeMap<>();
    shared.put(LakeEnv.RESULT_BUCKET, data.results.getBucketName());
    shared.put(LakeEnv.JOB_TABLE, data.jobs.getTableName());
    shared.put(LakeEnv.JOB_QUEUE_URL, data.queue.getQueueUrl());
    shared.put(LakeEnv.KMS_KEY_ID, data.ticketKey.getKeyArn());
    shared.put(LakeEnv.REGISTRY_TABLE, data.registry.getTableName());
    shared.put(LakeEnv.AWS_REGION, getRegion());
    shared.put(LakeEnv.RESULT_PREFIX, LakeEnv.RESULTS);
    shared.put(LakeEnv.KEY_RING_PREFIX, LakeEnv.TICKET_KEYS);
    shared.putAll(access.environment());
    Optional<ISecret> icebergOAuth2 =
        access
            .icebergOAuth2Secret()
            .map(arn -> Secret.fromSecretCompleteArn(this, "IcebergOAuth2", arn));

    frontDoor =
        new FrontDoorService(
            this,
            "FrontDoor",
            settings,
            vpc,
            data,
            repository("FrontDoorImages", frontDoorRepo),
            frontDoorTag.getValueAsString(),
            certificate.getValueAsString(),
            Secret.fromSecretCompleteArn(this, "TaskTls", taskTls.getValueAsString()),
            icebergOAuth2,
            shared);
    worker =
        new WorkerFunction(
            this,
            "Worker",
            settings,
            data,
            repository("WorkerImages", workerRepo),
            workerTag.getValueAsString(),
            icebergOAuth2,
            shared);
    // JWT identities (issuer, audience, key set) when the context configures them
    LakeIdentity.fromContext(getNode()::tryGetContext)
        .environment()
        .forEach(frontDoor.task.getDefaultContainer()::addEnvironment);
    grantFrontDoor(frontDoor.task.getTaskRole());
    grantWorker(worker.function);
    access.grantRead(frontDoor.task.getTaskRole(), frontDoor.task.getTaskRole());
    access.grantRead(worker.function, worker.function.getRole());
    monitoring = new LakeMonitoring(this, "Monitoring", data, frontDoor, worker);
    LakeNag.suppressBucketGrantWildcards(frontDoor.task.getTaskRole());
    LakeNag.suppressBucketGrantWildcards(worker.function.getRole());
    LakeNag.suppressExecutionRole(frontDoor.task.obtainExecutionRole());
    LakeNag.suppressLambdaBasicExecution(worker.function.getRole());

    CfnOutput.Builder.create(this, "Endpoint")
        .description("Flight SQL endpoint (grpc+tls://<this>:443)")
        .value(frontDoor.loadBalancer.getLoadBalancerDnsName())
        .build();
    CfnOutput.Builder.create(this, "PrincipalsSecret")
        .description("Secrets Manager secret holding the principals JSON")
        .value(data.principals.getSecretArn())
        .build();
    CfnOutput.Builder.create(this, "RegistryTable")
        .description("DynamoDB registry table (bin/lake table register)")
        .value(data.registry.getTableName())
        .build();
  }

  /** The front door: submits and reads jobs, reads result parts, shares the ticket-key ring. */
  private void grantFrontDoor(IGrantable role) {
    data.jobs.grantReadWriteData(role);
    data.registry.grantReadData(role);
    data.queue.grantSendMessages(role);
    data.results.grantRead(role, LakeEnv.RESULTS + "/*");
    grantTicketKeys(role);
  }

  /** The worker: runs jobs (the event source grants consumption) and writes their result parts. */
  private void grantWorker(IGrantable role) {
    data.jobs.grantReadWriteData(role);
    data.registry.grantReadData(role);
    data.results.grantReadWrite(role, LakeEnv.RESULTS + "/*");
    grantTicketKeys(role);
  }

  /** Both sides seal and unseal tickets, and either may rotate the shared ring. */
  private void grantTicketKeys(IGrantable role) {
    data.results.grantReadWrite(role, LakeEnv.TICKET_KEYS + "/*");
    data.ticketKey.grant(role, "kms:GenerateDataKey", "kms:Decrypt");
  }

  private CfnParameter parameter(String name, String description) {
    return CfnParameter.Builder.create(this, name)
        .type("String")
        .description(description)
        .minLength(1)
        .build();
  }

  private IRepository repository(String id, CfnParameter name) {
    return Repository.fromRepositoryName(this, id, name.getValueAsString());
  }
}
