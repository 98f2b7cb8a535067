Feature: Shopping cart
  Scenario: adding apples
    Given an empty cart
    When I add 2 apples
    Then the cart holds 3 items

  Scenario: removing an item
    Given an empty cart
    When I add 1 apples
    Then the cart holds 1 items
