// Writes the Outlook add-in's manifests for a public address, and its icons:
//   PUBLIC_URL=https://dealscout.example.com npm run manifests
// → manifests/dist/manifest.xml (add-in only), manifests/dist/manifest.json + color.png + outline.png
//   (the unified manifest's app package), addin-outlook/public/assets/icon-*.png (served at /addin/assets/).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ICON_SIZES, publicOrigin, renderJsonManifest, renderXmlManifest } from './src/manifests';
import { colorIcon, outlineIcon } from './src/icons';

const here = path.dirname(fileURLToPath(import.meta.url));
export const DIST = path.join(here, 'dist');
const ICONS = path.join(here, '..', 'addin-outlook', 'public', 'assets');

export function generate(publicUrl: string, dist = DIST): { xml: string; json: string } {
  const origin = publicOrigin(publicUrl);
  fs.mkdirSync(dist, { recursive: true });
  fs.mkdirSync(ICONS, { recursive: true });
  const xml = path.join(dist, 'manifest.xml');
  const json = path.join(dist, 'manifest.json');
  fs.writeFileSync(xml, renderXmlManifest(origin));
  fs.writeFileSync(json, `${JSON.stringify(renderJsonManifest(origin), null, 2)}\n`);
  fs.writeFileSync(path.join(dist, 'color.png'), colorIcon(192));
  fs.writeFileSync(path.join(dist, 'outline.png'), outlineIcon(32));
  for (const size of ICON_SIZES) fs.writeFileSync(path.join(ICONS, `icon-${size}.png`), colorIcon(size));
  return { xml, json };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const url = process.env.PUBLIC_URL ?? `http://localhost:${process.env.PORT ?? 3000}`;
  const out = generate(url);
  console.log(
    `Outlook add-in manifests for ${publicOrigin(url)}:\n  ${path.relative(process.cwd(), out.xml)}\n ` +
      ` ${path.relative(process.cwd(), out.json)} (with color.png, outline.png)`,
  );
}
