Feature: Payments
  Scenario: declined card is reported
    Given a card that the bank declines
    When I pay 20 EUR
    Then the payment is marked declined
