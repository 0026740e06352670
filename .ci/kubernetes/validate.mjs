// Validates the Kubernetes manifests offline: each object against its API schema (kubernetes-models carries the
// Kubernetes OpenAPI schemas as validators), then what docs/deploy.md promises of them together: probes on the
// sample's health endpoints, resource limits, a Service and an autoscaler that find the Deployment, and container
// ports that are the ones the Dockerfile exposes.
//   node validate.mjs <manifest folder> <Dockerfile>
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";
import { Deployment } from "kubernetes-models/apps/v1";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2";
import { Service } from "kubernetes-models/v1";

const models = {
  "apps/v1 Deployment": Deployment,
  "autoscaling/v2 HorizontalPodAutoscaler": HorizontalPodAutoscaler,
  "v1 Service": Service,
};

const [folder, dockerfile] = process.argv.slice(2);
const failures = [];
let passed = 0;
const check = (ok, what) => (ok ? passed++ : failures.push(what));

const objects = [];
for (const file of readdirSync(folder).filter((name) => /\.ya?ml$/.test(name)).sort()) {
  for (const document of parseAllDocuments(readFileSync(join(folder, file), "utf8"))) {
    if (document.errors.length > 0) {
      failures.push(`${file}: ${document.errors[0].message}`);
      continue;
    }
    const object = document.toJS();
    const model = models[`${object.apiVersion} ${object.kind}`];
    if (!model) {
      failures.push(`${file}: no schema here for ${object.apiVersion} ${object.kind}`);
      continue;
    }
    try {
      new model(object).validate();
      passed++;
    } catch (error) {
      failures.push(`${file}: ${object.kind} ${object.metadata?.name}: ${error.message}`);
    }
    objects.push({ file, object });
  }
}

const ofKind = (kind) => objects.filter(({ object }) => object.kind === kind).map(({ object }) => object);
const deployments = ofKind("Deployment");
const exposed = (readFileSync(dockerfile, "utf8").match(/^EXPOSE\s+(.+)$/m)?.[1] ?? "").split(/\s+/).map(Number).sort((a, b) => a - b);
check(deployments.length > 0, "there is no Deployment");

for (const deployment of deployments) {
  const name = `Deployment ${deployment.metadata.name}`;
  check(deployment.spec.replicas === undefined, `${name} sets replicas, which the HorizontalPodAutoscaler owns`);
  for (const container of deployment.spec.template.spec.containers) {
    const where = `${name} container ${container.name}`;
    check(container.readinessProbe?.httpGet?.path === "/healthz/ready", `${where}: readiness is not probed at /healthz/ready`);
    check(container.livenessProbe?.httpGet?.path === "/healthz", `${where}: liveness is not probed at /healthz`);
    for (const resource of ["cpu", "memory"]) {
      check(container.resources?.requests?.[resource] !== undefined, `${where}: no ${resource} request`);
      check(container.resources?.limits?.[resource] !== undefined, `${where}: no ${resource} limit`);
    }
    const ports = (container.ports ?? []).map((port) => port.containerPort).sort((a, b) => a - b);
    check(JSON.stringify(ports) === JSON.stringify(exposed), `${where}: ports ${ports} are not the Dockerfile's EXPOSE ${exposed}`);
  }
}

const matches = (selector, labels) => Object.entries(selector ?? {}).every(([key, value]) => labels?.[key] === value);
for (const service of ofKind("Service")) {
  const target = deployments.find((deployment) => matches(service.spec.selector, deployment.spec.template.metadata.labels));
  check(target !== undefined, `Service ${service.metadata.name} selects no Deployment's pods`);
  const portNames = (target?.spec.template.spec.containers ?? []).flatMap((container) => (container.ports ?? []).map((port) => port.name));
  for (const port of service.spec.ports) {
    check(portNames.includes(port.targetPort), `Service ${service.metadata.name} port ${port.name} targets ${port.targetPort}, which no container names`);
  }
}

for (const autoscaler of ofKind("HorizontalPodAutoscaler")) {
  const target = autoscaler.spec.scaleTargetRef;
  check(
    target.kind === "Deployment" && deployments.some((deployment) => deployment.metadata.name === target.name),
    `HorizontalPodAutoscaler ${autoscaler.metadata.name} scales ${target.kind} ${target.name}, which is not here`,
  );
}

for (const failure of failures) console.error(`FAIL ${failure}`);
console.log(`kubernetes manifests: ${passed} passed, ${failures.length} failed`);
process.exit(failures.length === 0 ? 0 : 1);
