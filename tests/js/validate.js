// Compiles JSON Schemas with Ajv in strict mode and validates documents
// against them, all in one process.
//
// Standard input: {"schemas": {NAME: SCHEMA, ...}, "documents": [[NAME, DOCUMENT], ...]}
// Standard output: {"compile": {NAME: null | "why it does not compile"},
//                   "results": [null | "why the document is invalid", ...]}
// A document whose schema did not compile gets the compile error as its result.
"use strict";

const Ajv2020 = require("ajv/dist/2020");

function main(input) {
  const request = JSON.parse(input);
  const compiled = {};
  const compileErrors = {};
  for (const [name, schema] of Object.entries(request.schemas)) {
    // A fresh instance per schema: every schema stands alone, as a user's
    // validator would load it.
    const ajv = new Ajv2020({ strict: true, allErrors: false });
    try {
      compiled[name] = ajv.compile(schema);
      compileErrors[name] = null;
    } catch (e) {
      compileErrors[name] = String(e && e.message ? e.message : e);
    }
  }
  const results = request.documents.map(([name, doc]) => {
    const validate = compiled[name];
    if (!validate) {
      return `schema ${name} did not compile: ${compileErrors[name] ?? "unknown schema"}`;
    }
    if (validate(doc)) {
      return null;
    }
    return validate.errors
      .map((e) => `${e.instancePath || "/"} ${e.message}${e.params ? " " + JSON.stringify(e.params) : ""}`)
      .join("; ");
  });
  process.stdout.write(JSON.stringify({ compile: compileErrors, results }));
}

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  input += chunk;
});
process.stdin.on("end", () => main(input));
