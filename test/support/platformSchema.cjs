/**
 * `zapier-platform-schema` as jest's test files get it: the same module, loaded on first use.
 * `zapier-platform-core` requires it when it loads and it then builds a validator for each of its schemas
 * (about a sixth of a CPU-second), but core only uses it to validate an app definition; jest loads core
 * anew in every test file, so each file would pay for it.
 */
let loaded;
const schema = () => (loaded ??= require('zapier-platform-schema/schema.js'));

module.exports = {
  get AppSchema() {
    return schema().AppSchema;
  },
  validateAppDefinition: (definition) => schema().validateAppDefinition(definition),
  exportSchema: () => schema().exportSchema(),
};
