/** The environment of the API key; operations without one are refused as unauthorized. */
export { environmentOf } from '@sesame/platform';
