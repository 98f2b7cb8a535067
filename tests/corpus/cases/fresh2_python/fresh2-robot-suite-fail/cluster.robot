*** Settings ***
Library    OperatingSystem
Library    Collections

*** Variables ***
${EXPECTED_NODES}    3

*** Test Cases ***
Config File Is Written
    Create File    ${CURDIR}/app.cfg    workers=4
    File Should Exist    ${CURDIR}/app.cfg

Cluster Has All Nodes
    @{nodes}=    Create List    node-a    node-b
    ${count}=    Get Length    ${nodes}
    Should Be Equal As Integers    ${count}    ${EXPECTED_NODES}    msg=cluster is missing nodes
