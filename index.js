// The CommonJS entry Zapier loads. Zapier's production wrapper requires this file without unwrapping
// `.default`, so export the app definition object itself.
module.exports = require('./dist/index.js').default;
