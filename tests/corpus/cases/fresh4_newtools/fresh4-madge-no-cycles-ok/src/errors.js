module.exports = class AppError extends Error {};
