exports.today = () => new Date().toISOString().slice(0, 10);
