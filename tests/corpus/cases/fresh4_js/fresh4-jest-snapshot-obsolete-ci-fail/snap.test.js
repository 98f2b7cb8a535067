test('renders', () => expect({ title: 'Hi', items: [1, 2] }).toMatchSnapshot());
