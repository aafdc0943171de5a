/*
 * rt_mpi_tramp.S — the MPI_ and PMPI_ symbols libioatlas.so exports: one
 * indirect jump each, through a slot that rt_mpi_bind() fills at the first
 * MPI call with the wrapper of the MPI family the program runs with, or
 * with the MPI library's own function (rt_mpi_bind.c).  Expanded from the
 * tables of rt_mpi_calls.h by the C preprocessor; nothing in here depends
 * on an MPI library's types or values, which is what lets one library serve
 * every MPI.
 *
 * Each symbol NAME has:
 *	NAME            exported: jumps through rt_slot_NAME
 *	rt_slot_NAME    hidden pointer, first rt_lazy_NAME
 *	rt_lazy_NAME    passes its slot to rt_mpi_lazy
 * rt_mpi_lazy saves the argument registers, calls rt_mpi_bind(slot), puts
 * them back and jumps where it said (the bound slot's function): the MPI
 * function sees the call exactly as the program made it, stack arguments
 * included.
 */
#include "rt_mpi_calls.h"

#if defined(__x86_64__)

/* clang-format off */
#define RT_TRAMP(sym)                                                                     \
	.text; .globl sym; .type sym, @function; .balign 16;                              \
	sym: jmp *rt_slot_##sym(%rip); .size sym, .-sym;                                  \
	.type rt_lazy_##sym, @function;                                                   \
	rt_lazy_##sym: lea rt_slot_##sym(%rip), %r11; jmp rt_mpi_lazy;                    \
	.size rt_lazy_##sym, .-rt_lazy_##sym;                                             \
	.data; .balign 8; .globl rt_slot_##sym; .hidden rt_slot_##sym;                    \
	.type rt_slot_##sym, @object; .size rt_slot_##sym, 8;                             \
	rt_slot_##sym: .quad rt_lazy_##sym

	.text
	.balign 16
	.type rt_mpi_lazy, @function
rt_mpi_lazy:
	.cfi_startproc
	push %rdi
	.cfi_adjust_cfa_offset 8
	push %rsi
	.cfi_adjust_cfa_offset 8
	push %rdx
	.cfi_adjust_cfa_offset 8
	push %rcx
	.cfi_adjust_cfa_offset 8
	push %r8
	.cfi_adjust_cfa_offset 8
	push %r9
	.cfi_adjust_cfa_offset 8
	push %r11
	.cfi_adjust_cfa_offset 8
	/* 7 pushes on a call-site stack (8 mod 16): aligned for the call */
	mov %r11, %rdi
	call rt_mpi_bind@PLT	/* where this call goes, in %rax */
	pop %r11
	.cfi_adjust_cfa_offset -8
	pop %r9
	.cfi_adjust_cfa_offset -8
	pop %r8
	.cfi_adjust_cfa_offset -8
	pop %rcx
	.cfi_adjust_cfa_offset -8
	pop %rdx
	.cfi_adjust_cfa_offset -8
	pop %rsi
	.cfi_adjust_cfa_offset -8
	pop %rdi
	.cfi_adjust_cfa_offset -8
	jmp *%rax	/* %rax carries no argument: no intercepted call is variadic */
	.cfi_endproc
	.size rt_mpi_lazy, .-rt_mpi_lazy

#define RT_GNU_STACK .section .note.GNU-stack, "", @progbits

#elif defined(__aarch64__)

#define RT_TRAMP(sym)                                                                     \
	.text; .globl sym; .type sym, %function; .balign 16;                              \
	sym: adrp x16, rt_slot_##sym; ldr x16, [x16, :lo12:rt_slot_##sym]; br x16;        \
	.size sym, .-sym;                                                                 \
	.type rt_lazy_##sym, %function;                                                   \
	rt_lazy_##sym: adrp x17, rt_slot_##sym; add x17, x17, :lo12:rt_slot_##sym;        \
	b rt_mpi_lazy; .size rt_lazy_##sym, .-rt_lazy_##sym;                              \
	.data; .balign 8; .globl rt_slot_##sym; .hidden rt_slot_##sym;                    \
	.type rt_slot_##sym, %object; .size rt_slot_##sym, 8;                             \
	rt_slot_##sym: .quad rt_lazy_##sym

	.text
	.balign 16
	.type rt_mpi_lazy, %function
rt_mpi_lazy:
	.cfi_startproc
	stp x29, x30, [sp, #-96]!
	.cfi_def_cfa_offset 96
	.cfi_offset x29, -96
	.cfi_offset x30, -88
	mov x29, sp
	stp x0, x1, [sp, #16]
	stp x2, x3, [sp, #32]
	stp x4, x5, [sp, #48]
	stp x6, x7, [sp, #64]
	stp x8, x17, [sp, #80]
	mov x0, x17
	bl rt_mpi_bind
	mov x16, x0	/* where this call goes */
	ldp x8, x17, [sp, #80]
	ldp x6, x7, [sp, #64]
	ldp x4, x5, [sp, #48]
	ldp x2, x3, [sp, #32]
	ldp x0, x1, [sp, #16]
	ldp x29, x30, [sp], #96
	.cfi_def_cfa_offset 0
	br x16
	.cfi_endproc
	.size rt_mpi_lazy, .-rt_mpi_lazy

#define RT_GNU_STACK .section .note.GNU-stack, "", %progbits

#else
#error "libioatlas.so's MPI symbols are x86_64 and aarch64 jumps (rt_mpi_tramp.S); build with -DIOATLAS_WITH_MPI=OFF on this architecture"
#endif

#define RT_TRAMP_BOTH(name, ...) RT_TRAMP(MPI_##name); RT_TRAMP(PMPI_##name);

RT_MPI_CALLS(RT_TRAMP_BOTH)
RT_MPI_COMM_CALLS(RT_TRAMP_BOTH)
RT_MPI_LARGE_CALLS(RT_TRAMP_BOTH)

	RT_GNU_STACK
/* clang-format on */
