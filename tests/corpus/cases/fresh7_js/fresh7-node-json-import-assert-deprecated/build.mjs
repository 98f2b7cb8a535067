import { mkdirSync, writeFileSync } from 'node:fs';
import config from './app.config.json' assert { type: 'json' };
mkdirSync('dist', { recursive: true });
writeFileSync('dist/manifest.txt', config.routes.map((r) => `${config.name}${r}`).join('\n') + '\n');
console.log(`wrote ${config.routes.length} routes`);
