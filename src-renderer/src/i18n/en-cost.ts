// The English text of cost and context: $ in the usage panel, the context gauge beside the composer, and a profile's
// prices in its form (merged into en.ts).
export const enCost = {
  'cost.title': 'Estimated from the list prices of {model}',
  'cost.titleMixed': 'Estimated from the models’ list prices',
  'cost.job': 'run {usd}',
  'cost.jobTitle': 'The whole run this exchange started, every exchange of it together',
  'cost.turn': 'Turn {turn}',
  'cost.perTurn': 'Model calls per turn',

  'gauge.label': 'Context: {prompt} of {window} tokens ({percent}%) at the last call to {model}',
  'gauge.sourceServer': 'window as the server lists it',
  'gauge.sourceProfile': 'window as the profile sets it',

  'price.legend': 'Prices, USD per million tokens',
  'price.input': 'Input',
  'price.cachedInput': 'Cached input',
  'price.output': 'Output',
  'price.preset': 'Empty: the list price of {model}, {input} / {cached} / {output} (checked {checked}, {source}).',
  'price.none': 'Empty: no price is known for {model}, so usage shows tokens only.',
  'price.invalid': 'Enter a number of dollars, 0 or more.',
  'price.needBoth': 'Input and output are both needed for a price.',
} as const;
