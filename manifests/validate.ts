// npm run validate:manifests — renders both manifests (PUBLIC_URL, default https://localhost:3000)
// and validates them: the unified JSON manifest offline against the schema bundled in
// @microsoft/app-manifest; the XML manifest parsed locally by office-addin-manifest (the `info`
// path) and checked; Microsoft's online XML validation only with MANIFEST_VALIDATE_ONLINE=1, where
// its service is reachable (otherwise it says so and skips). Exit 1 on any problem.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { AppManifestUtils, type AppManifest } from '@microsoft/app-manifest';
import { OfficeAddinManifest, validateManifest } from 'office-addin-manifest';
import { generate } from './generate';
import { ADDIN, UNIFIED_MANIFEST_VERSION, publicOrigin } from './src/manifests';

const require = createRequire(import.meta.url);

export async function validateJson(file: string): Promise<string[]> {
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as AppManifest;
  const schemaFile = path.join(
    path.dirname(require.resolve('@microsoft/app-manifest')),
    'json-schemas',
    'teams',
    `v${UNIFIED_MANIFEST_VERSION}`,
    'MicrosoftTeams.schema.json',
  );
  const schema = JSON.parse(fs.readFileSync(schemaFile, 'utf8'));
  return AppManifestUtils.validateAgainstSchema(manifest, schema);
}

export async function checkXml(file: string, origin: string): Promise<string[]> {
  const info = await OfficeAddinManifest.readManifestFile(file);
  const problems: string[] = [];
  const expect = (what: string, got: unknown, want: unknown) => {
    if (JSON.stringify(got) !== JSON.stringify(want)) problems.push(`${what}: ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
  };
  expect('Id', info.id, ADDIN.id);
  expect('OfficeApp type', info.officeAppType, 'MailApp');
  expect('Hosts', info.hosts, ['Mailbox']);
  expect('DisplayName', info.displayName, ADDIN.name);
  expect('AppDomains', info.appDomains, [origin]);
  expect('Permissions', info.permissions, 'ReadWriteItem');
  // Every address in it is under the public address (the pane, its icons).
  const urls = [...fs.readFileSync(file, 'utf8').matchAll(/DefaultValue="(https?:[^"]+)"/g)].map((m) => m[1]);
  if (urls.length === 0) problems.push('no URL found');
  for (const u of urls) if (!u.startsWith(`${origin}/`)) problems.push(`URL outside ${origin}: ${u}`);
  if (!urls.includes(`${origin}${ADDIN.panePath}`)) problems.push(`the task pane URL ${origin}${ADDIN.panePath} is missing`);
  return problems;
}

async function main(): Promise<void> {
  const origin = publicOrigin(process.env.PUBLIC_URL ?? 'https://localhost:3000');
  const out = generate(origin);
  let failed = false;

  const jsonErrors = await validateJson(out.json);
  if (jsonErrors.length) {
    failed = true;
    console.error(
      `✗ ${path.relative(process.cwd(), out.json)} does not match the unified manifest schema v${UNIFIED_MANIFEST_VERSION}:\n  ${jsonErrors.join('\n  ')}`,
    );
  } else
    console.log(
      `✓ ${path.relative(process.cwd(), out.json)}: valid against the bundled unified manifest schema v${UNIFIED_MANIFEST_VERSION} (offline)`,
    );

  const xmlProblems = await checkXml(out.xml, origin);
  if (xmlProblems.length) {
    failed = true;
    console.error(`✗ ${path.relative(process.cwd(), out.xml)}:\n  ${xmlProblems.join('\n  ')}`);
  } else console.log(`✓ ${path.relative(process.cwd(), out.xml)}: parsed by office-addin-manifest (offline) and checked`);

  if (process.env.MANIFEST_VALIDATE_ONLINE === '1') {
    try {
      const v = await validateManifest(out.xml);
      if (!v.isValid) {
        failed = true;
        console.error(
          `✗ Microsoft's validation service refused the XML manifest:\n  ${(v.report?.errors ?? []).map((e) => `${e.title}: ${e.content}`).join('\n  ')}`,
        );
      } else console.log("✓ manifest.xml: valid for Microsoft's validation service");
    } catch (e) {
      console.log(
        `- Microsoft's validation service could not be reached (${e instanceof Error ? e.message : String(e)}): online XML validation skipped`,
      );
    }
  } else {
    console.log("- Online XML validation skipped: it calls Microsoft's service (set MANIFEST_VALIDATE_ONLINE=1 where it is reachable)");
  }
  if (failed) process.exitCode = 1;
}

if (process.argv[1] && path.resolve(process.argv[1]).endsWith(path.join('manifests', 'validate.ts'))) await main();
