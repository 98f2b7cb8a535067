export function login(token) { if (token !== 'good') { console.error(new Error('invalid token: ' + token)); return false; } return true; }
