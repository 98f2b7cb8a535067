const AppError = require('./errors');
module.exports = () => { throw new AppError('x'); };
