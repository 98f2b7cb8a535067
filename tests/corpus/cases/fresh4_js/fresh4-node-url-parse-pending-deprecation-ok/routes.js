const url = require('url');
for (const u of ['http://x/api/users?id=1', 'http://x/health']) console.log('route', url.parse(u).pathname);
