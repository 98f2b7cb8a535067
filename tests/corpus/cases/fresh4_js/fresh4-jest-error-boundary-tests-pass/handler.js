function handle(fn) { try { return { ok: true, value: fn() }; } catch (err) { console.error('handler caught:', err); return { ok: false, error: err.message }; } }
module.exports = { handle };
