%{
#include <stdio.h>
int yylex(void);
void yyerror(const char *s) { fprintf(stderr, "%s\n", s); }
%}
%token NUM
%%
expr: expr '+' expr
    | expr '*' expr
    | NUM
    ;
%%
