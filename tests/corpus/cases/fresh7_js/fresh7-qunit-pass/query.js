exports.parseQuery = (q) => Object.fromEntries(q.replace(/^\?/, '').split('&').filter(Boolean).map((kv) => kv.split('=').map(decodeURIComponent)));
