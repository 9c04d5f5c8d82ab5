// Parses every AsyncAPI document given on the command line with the official parser
// (@asyncapi/parser) and fails on any diagnostic of severity error; warnings are printed.
// The parser does not check message examples against their payload schema, so this script
// also validates each example with Ajv (draft-07, the parser's own dependency) and counts a
// failing example as an error.
// Usage: node scripts/check-asyncapi.mjs FILE...  (NODE_PATH must reach @asyncapi/parser;
// scripts/steps/55-asyncapi.sh installs it under target/asyncapi-check and runs this).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";

const require = createRequire(resolve(process.env.ASYNCAPI_PARSER_DIR ?? ".", "package.json"));
const { Parser, DiagnosticSeverity } = require("@asyncapi/parser");
const Ajv = require("ajv");

const files = process.argv.slice(2);
if (files.length === 0) {
    console.error("usage: node scripts/check-asyncapi.mjs FILE...");
    process.exit(2);
}
const parser = new Parser();
const names = { [DiagnosticSeverity.Error]: "error", [DiagnosticSeverity.Warning]: "warning", [DiagnosticSeverity.Information]: "info", [DiagnosticSeverity.Hint]: "hint" };
let errors = 0;
let warnings = 0;
for (const file of files) {
    const { document, diagnostics } = await parser.parse(readFileSync(file, "utf8"), { source: resolve(file) });
    for (const d of diagnostics) {
        const severity = names[d.severity] ?? String(d.severity);
        if (d.severity === DiagnosticSeverity.Error) errors++;
        if (d.severity === DiagnosticSeverity.Warning) warnings++;
        if (d.severity <= DiagnosticSeverity.Warning) {
            console.log(`${file}: ${severity} ${d.code}: ${d.message} at /${(d.path ?? []).join("/")}`);
        }
    }
    if (!document) {
        console.log(`${file}: not parsed`);
        errors = Math.max(errors, 1);
        continue;
    }
    for (const message of document.allMessages()) {
        const schema = message.payload()?.json();
        const examples = message.examples().all();
        if (!schema || examples.length === 0) {
            console.log(`${file}: error: message ${message.id()} has no payload schema or no example`);
            errors++;
            continue;
        }
        const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
        for (const example of examples) {
            if (!validate(example.payload())) {
                errors++;
                console.log(`${file}: error: example ${example.name()} of message ${message.id()} fails its payload schema: ${JSON.stringify(validate.errors)}`);
            }
        }
    }
    console.log(`${file}: AsyncAPI ${document.version()}, ${document.allMessages().length} messages, ${document.operations().length} operations`);
}
console.log(`check-asyncapi: ${files.length} document(s), ${errors} error(s), ${warnings} warning(s)`);
process.exit(errors === 0 ? 0 : 1);
