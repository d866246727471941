/** Writes the API's OpenAPI document (as `/openapi.json` serves it) to the file named on the command line: for the client generators. */
import fs from 'node:fs';
import { apiDocument } from '../../src/http/apiDocument';

const file = process.argv[2];
if (!file) {
  console.error('usage: tsx scripts/openapi/write.ts <file>');
  process.exit(2);
}
fs.writeFileSync(file, `${JSON.stringify(apiDocument(), null, 2)}\n`);
