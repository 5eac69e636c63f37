import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generate } from './generate';
import { checkXml, validateJson } from './validate';
import { ADDIN, renderJsonManifest, renderXmlManifest } from './src/manifests';

describe('Outlook add-in manifests', () => {
  const dir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'ds-manifests-'));

  it('both manifests come from one description and the public address, and validate offline', async () => {
    const out = generate('https://dealscout.example.com/some/path', dir());
    expect(await validateJson(out.json)).toEqual([]);
    expect(await checkXml(out.xml, 'https://dealscout.example.com')).toEqual([]);
    const json = JSON.parse(fs.readFileSync(out.json, 'utf8'));
    expect(json.id).toBe(ADDIN.id);
    expect(json.validDomains).toEqual(['dealscout.example.com']);
    expect(json.extensions[0].runtimes[0].code.page).toBe('https://dealscout.example.com/addin/');
    expect(json.extensions[0].runtimes[0].actions[0].pinnable).toBe(true);
    expect(json.extensions[0].ribbons[0].contexts).toEqual(['mailRead', 'mailCompose']);
    const xml = fs.readFileSync(out.xml, 'utf8');
    expect(xml).toContain('<SupportsPinning>true</SupportsPinning>');
    expect(xml).toContain('MessageReadCommandSurface');
    expect(xml).toContain('MessageComposeCommandSurface');
    // The icons it names exist in the pane's build input and are PNGs.
    for (const size of [16, 32, 64, 80, 128]) {
      const icon = fs.readFileSync(path.resolve('addin-outlook/public/assets', `icon-${size}.png`));
      expect(icon.subarray(1, 4).toString()).toBe('PNG');
      expect(icon.readUInt32BE(16)).toBe(size);
    }
  });

  it('the validators catch a broken manifest', async () => {
    const d = dir();
    const json = renderJsonManifest('https://dealscout.example.com');
    delete (json as { name?: unknown }).name;
    (json as { version: string }).version = 'not a version!';
    fs.writeFileSync(path.join(d, 'manifest.json'), JSON.stringify(json));
    expect((await validateJson(path.join(d, 'manifest.json'))).length).toBeGreaterThan(0);
    fs.writeFileSync(path.join(d, 'manifest.xml'), renderXmlManifest('https://elsewhere.example.com'));
    expect(await checkXml(path.join(d, 'manifest.xml'), 'https://dealscout.example.com')).toEqual(
      expect.arrayContaining([expect.stringContaining('AppDomains')]),
    );
  });

  it('refuses a public address that is not http(s)', () => {
    expect(() => renderXmlManifest('ftp://x.example.com')).toThrow('PUBLIC_URL must be an http(s) address');
  });
});
