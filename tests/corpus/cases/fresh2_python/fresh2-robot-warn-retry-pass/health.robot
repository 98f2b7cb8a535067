*** Test Cases ***
Service Answers After Retry
    Log    Connection refused by 127.0.0.1:5432, retrying in 1s (attempt 1/3)    WARN
    Log    ERROR: backend not ready yet    WARN
    Should Be Equal    ready    ready

Config Is Valid
    Should Contain    workers=4    workers
