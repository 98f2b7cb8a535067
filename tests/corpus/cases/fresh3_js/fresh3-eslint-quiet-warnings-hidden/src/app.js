console.log('starting');
module.exports = {};
