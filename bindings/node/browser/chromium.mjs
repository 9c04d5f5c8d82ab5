// Headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core): launch with the
// flags that keep it off the network, and a fresh profile directory each time.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.WIRECONTRACT_CHROMIUM || '/usr/bin/chromium';

export async function launch() {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'wirecontract-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    context,
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}
