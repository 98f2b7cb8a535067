section .text
global _start
_start:
    nop
spare
    mov rax, 60
    xor rdi, rdi
    syscall
