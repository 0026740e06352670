// Fetches the running sample's OpenAPI document, validates it against the official OpenAPI 3.1 schema, checks that
// every $ref resolves and every ProtoHttp method is there, then validates the sample's real JSON answers against the
// document's own message schemas: a schema that is not protobuf's JSON mapping (an int64 as a number, a Timestamp as
// an object, a wrong field name) fails here.
import { Validator } from "@seriousme/openapi-schema-validator";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

const base = process.argv[2] ?? "http://localhost:5080";
const fail = (message) => { console.error(`OpenAPI: ${message}`); process.exit(1); };

const document = await (await fetch(`${base}/openapi/v1.json`)).json();
if (!document.openapi?.startsWith("3.1")) fail(`the document is OpenAPI ${document.openapi}, not 3.1`);
const result = await new Validator().validate(document);
if (!result.valid) fail(`the document is not valid OpenAPI 3.1:\n${JSON.stringify(result.errors, null, 2)}`);

const refs = JSON.stringify(document).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g);
for (const [, id] of refs) {
  if (!document.components.schemas[id]) fail(`$ref to ${id}, which is not in components.schemas`);
}

const operations = {
  "/ProtoService.proto/Search": ["get", "post"],
  "/Northwind.proto/GetOrders": ["get", "post"],
  "/Northwind.proto/Roundtrip": ["get", "post"],
  "/ProtoService.SearchService/Search": ["post"],
  "/Northwind.NorthwindService/GetOrders": ["get", "post"],
  "/Northwind.NorthwindService/Roundtrip": ["post"],
};
for (const [path, verbs] of Object.entries(operations)) {
  const listed = Object.keys(document.paths[path] ?? {}).sort().join();
  if (listed !== verbs.join()) fail(`${path} lists [${listed}], not [${verbs}]`);
}

// The formats the document uses, as protobuf's JSON mapping defines them.
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addFormat("int64", /^-?[0-9]+$/);
ajv.addFormat("uint64", /^[0-9]+$/);
ajv.addFormat("int32", { type: "number", validate: (n) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
ajv.addFormat("uint32", { type: "number", validate: (n) => Number.isInteger(n) && n >= 0 && n < 2 ** 32 });
ajv.addFormat("float", { type: "number", validate: () => true });
ajv.addFormat("double", { type: "number", validate: () => true });
// The document leaves messages open (clients may send proto names, and servers may ignore unknown fields); here a
// property the schema does not name is an error, so an answer's field names must be the schema's.
const closed = structuredClone(document.components);
for (const schema of Object.values(closed.schemas)) {
  if (schema.properties) schema.unevaluatedProperties = false;
}
ajv.addSchema({ $id: "openapi.json", components: closed });

async function answerMatches(path, init, schemaId) {
  const response = await fetch(`${base}${path}`, init);
  if (!response.ok) fail(`${path} answered ${response.status}`);
  const validate = ajv.compile({ $ref: `openapi.json#/components/schemas/${schemaId}` });
  if (!validate(await response.json())) fail(`${path}'s answer does not match ${schemaId}:\n${JSON.stringify(validate.errors, null, 2)}`);
}

const json = { "Content-Type": "application/json", Accept: "application/json" };
await answerMatches("/ProtoService.proto/Search?query=chai", {}, "ProtoService.SearchResponse");
await answerMatches("/Northwind.proto/GetOrders", { method: "POST", headers: json }, "Northwind.OrderList");
const error = await fetch(`${base}/ProtoService.proto/Search`, { method: "POST", headers: json, body: "{}" });
const validateError = ajv.compile({ $ref: "openapi.json#/components/schemas/protohttp.ErrorResult" });
if (error.status !== 400 || !validateError(await error.json())) fail("the 400 for a missing query is not an ErrorResult as described");

console.log(`OpenAPI: ${base}/openapi/v1.json is valid OpenAPI ${document.openapi}, lists every method, and the sample's answers match its schemas`);
