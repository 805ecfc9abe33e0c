/*
 * sextant-recorder-callsite.c - where in the program each MPI call was made.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For every recorded MPI call the ENTER record carries two attributes: the
 * call site (a SourceCodeLocation: file and line of the call instruction)
 * and the calling context (a chain of CallingContext definitions, leaf
 * first: for each frame the function it is in, as a REGION with the
 * function's file and line, and the line of its call; up to
 * sextant__rec.callpath frames, ending at main()).
 *
 * How: the wrapper passes its own frame address. On x86-64 the frame holds
 * the saved frame pointer and the return address into the caller (the
 * wrappers keep frame pointers), which gives the first frame's pc, sp and
 * bp. From there a small unwinder follows the call frame information
 * (.eh_frame, read with libdw): for each return address it needs where the
 * CFA is (sp or bp plus an offset), where the return address and the saved
 * bp are (CFA plus an offset). Those "rules", and the region and source
 * line of the address, are resolved once per address with elfutils' libdwfl
 * on the running process (dwfl_linux_proc_report) and cached. Every read of
 * the stack is checked against the thread's stack bounds first, so a wrong
 * rule ends the unwinding instead of faulting. Other architectures record
 * the call site (the return address) only.
 *
 * Caches (workload: a program makes its MPI calls from a handful of places,
 * millions of times):
 *  - per thread, direct-mapped, no lock: walks (256): the wrapper's return
 *    address and its caller's stack pointer -> the stack words the walk
 *    read there and its (call site, context). A walk is a function of its
 *    start registers and of the words it reads (return addresses, saved
 *    frame pointers), so when those words are still there the result is
 *    too: a hit compares one word per frame instead of walking. A saved
 *    frame pointer (or the caller's own) counts only where a later frame's
 *    CFA was computed from it: code without frame pointers keeps loop
 *    counters in that register. Then return address -> rule (512), and the
 *    whole chain of return addresses -> (call site, context) (256);
 *  - per process, under sextant__rec.lock: return address -> rule. libdw
 *    is only used on a miss of this one, and is not thread-safe, hence the
 *    lock.
 * So a call from a known place at a known depth costs a few compares (80
 * instructions for the whole call site and context of a 2-frame path, 240
 * with the walk); a known place reached another way a small walk up the
 * stack and a few cache probes; a new place a libdw lookup (tens of
 * microseconds, the first one in a module milliseconds for its line table).
 */
#include "sextant-recorder-private.h"

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <dwarf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RULE_SLOTS 512              /* per-thread rule cache, power of two */
#define CHAIN_SLOTS 256             /* per-thread chain cache, power of two */
#define WALK_SLOTS 256              /* per-thread walk cache, power of two */

#if defined(__x86_64__)
#define SEXTANT__UNWIND 1
#define REG_BP 6                    /* DWARF register numbers, x86-64 psABI */
#define REG_SP 7
#endif

enum
{
  BP_SAME = 0,                      /* the caller's bp is this frame's */
  BP_SAVED = 1,                     /* saved at CFA + bp_off */
  BP_UNKNOWN = 2,
};

struct sextant__unwind_rule
{
  uintptr_t pc;                     /* return address the rule is for; 0 = empty slot */
  int32_t cfa_off;
  int32_t ra_off;                   /* return address saved at CFA + ra_off */
  int32_t bp_off;
  int8_t cfa_reg;                   /* REG_SP or REG_BP; -1: cannot unwind past this frame */
  int8_t bp_how;
  uint8_t stop;                     /* main(): the outermost frame we record */
  uint8_t outer;                    /* the C library's thread or process start: not recorded */
  uint32_t region;                  /* local REGION of the function containing pc */
  uint32_t scl;                     /* local SCL of the call (pc - 1), or UNDEF */
};

struct sextant__chain_slot
{
  uint64_t hash;                    /* of the pcs; 0 = empty */
  uint32_t n;
  uint32_t scl;
  uint32_t context;
  uintptr_t pcs[];                  /* sextant__rec.callpath entries */
};

/* A stack read the walk depended on: the word at @addr was @value. */
typedef struct
{
  uintptr_t addr;
  uintptr_t value;
} stack_read;

/* A walk from one wrapper frame: the registers it started from, the stack
 * words it read (whatever else is on the stack does not change its
 * result) and its result. */
struct sextant__walk_slot
{
  uintptr_t pc;                     /* the wrapper's return address; 0 = empty */
  uintptr_t sp;                     /* the caller's stack pointer at the call */
  uintptr_t bp;                     /* the caller's frame pointer, if the walk used it */
  uint8_t use_bp;
  uint8_t n_reads;
  uint32_t scl;
  uint32_t context;
  stack_read reads[];               /* 2 * sextant__rec.callpath entries */
};

static Dwfl *dwfl;                  /* under sextant__rec.lock */
static char *debuginfo_path;
static sextant__blobmap rule_index; /* pc -> index in rules; under the lock */
static sextant__unwind_rule *rules;
static size_t n_rules, cap_rules;
static uint32_t unknown_region = SEXTANT__UNDEF;
static char *cwd;

static const Dwfl_Callbacks dwfl_callbacks = {
  .find_elf = dwfl_linux_proc_find_elf,
  .find_debuginfo = dwfl_standard_find_debuginfo,
  .debuginfo_path = &debuginfo_path,
};

static int
report_modules (void)
{
  dwfl_report_begin (dwfl);
  if (dwfl_linux_proc_report (dwfl, getpid ()) != 0)
    return -1;
  return dwfl_report_end (dwfl, NULL, NULL);
}

int
sextant__callsite_init (void)
{
  char buf[PATH_MAX];

  cwd = getcwd (buf, sizeof buf) != NULL ? strdup (buf) : NULL;
  dwfl = dwfl_begin (&dwfl_callbacks);
  if (dwfl == NULL || report_modules () != 0)
    {
      sextant__warn ("libdw cannot read this process's modules (%s); call sites are not recorded",
                     dwfl_errmsg (-1));
      if (dwfl != NULL)
        dwfl_end (dwfl);
      dwfl = NULL;
    }
  return 0;
}

void
sextant__callsite_fini (void)
{
  if (dwfl != NULL)
    dwfl_end (dwfl);
  dwfl = NULL;
  sextant__blobmap_free (&rule_index);
  free (rules);
  rules = NULL;
  n_rules = cap_rules = 0;
  unknown_region = SEXTANT__UNDEF;
  free (cwd);
  cwd = NULL;
}

void
sextant__callsite_thread_free (sextant__thread *t)
{
  free (t->rules);
  free (t->chains);
  free (t->walks);
  t->rules = NULL;
  t->chains = NULL;
  t->walks = NULL;
}

/* A source file name as it should appear in the trace: absolute (relative
 * names are relative to the compilation directory @comp_dir, or to ours)
 * and without "." or ".." (realpath when the file exists here, else as
 * given). */
static uint32_t
file_string (const char *file,
             const char *comp_dir)
{
  char resolved[PATH_MAX];
  char joined[PATH_MAX];
  const char *base = comp_dir != NULL && comp_dir[0] == '/' ? comp_dir : cwd;

  if (file == NULL || file[0] == '\0')
    return SEXTANT__UNDEF;
  if (file[0] != '/' && base != NULL &&
      snprintf (joined, sizeof joined, "%s/%s", base, file) < (int) sizeof joined)
    file = joined;
  if (realpath (file, resolved) != NULL)
    file = resolved;
  return sextant__def_string (&sextant__rec.defs, file);
}

static uint32_t
region_of_function (const char *name,
                    const char *decl_file,
                    const char *comp_dir,
                    int         decl_line)
{
  sextant__region_def def = { 0 };

  def.name = sextant__def_string (&sextant__rec.defs, name);
  def.role = OTF2_REGION_ROLE_FUNCTION;
  def.paradigm = OTF2_PARADIGM_USER;
  def.file = file_string (decl_file, comp_dir);
  def.begin = decl_line > 0 ? (uint32_t) decl_line : 0;
  def.end = 0;
  if (def.name == SEXTANT__UNDEF)
    return SEXTANT__UNDEF;
  return sextant__def_region (&sextant__rec.defs, &def);
}

/* The name of the function whose symbol is @symbol: without the suffix of
 * a compiler's clone (GCC's foo.constprop.0, foo.isra.0, foo.part.0,
 * foo.cold, foo.lto_priv.0; Clang's foo.llvm.123), which is the same source
 * function - its declaration is the clone's abstract origin's - and should
 * read the same in call paths. In @buf (of @size bytes) when cut. */
static const char *
function_name (const char *symbol,
               char       *buf,
               size_t      size)
{
  static const char *const clones[] = { ".constprop.", ".isra.", ".part.", ".cold", ".lto_priv.", ".llvm." };
  const char *cut = NULL;

  for (size_t i = 0; i < sizeof clones / sizeof clones[0]; i++)
    {
      const char *at = strstr (symbol, clones[i]);

      if (at != NULL && at > symbol && (cut == NULL || at < cut))
        cut = at;
    }
  if (cut == NULL || (size_t) (cut - symbol) >= size)
    return symbol;
  memcpy (buf, symbol, (size_t) (cut - symbol));
  buf[cut - symbol] = '\0';
  return buf;
}

/* The declaration (file and line) of the function whose code is at @pc (an
 * address of the unit @cu): the innermost DW_TAG_subprogram that contains
 * the innermost scope at @pc in the unit's DIE tree. dwarf_getscopes alone
 * does not give it for inlined code: past a DW_TAG_inlined_subroutine it
 * goes on with the scopes of the inlined function's abstract definition
 * (the unit), not with the function the code was inlined into, so an
 * address in inlined code - a function's first instruction, often - would
 * give no function or the inlined one. dwarf_getscopes_die gives the scopes
 * that contain the innermost DIE itself. The decl attributes of a concrete
 * DIE without them (the out-of-line copy of an inline function, a
 * .constprop/.isra/.part clone, a C++ member defined outside its class) are
 * those of its DW_AT_abstract_origin or DW_AT_specification: dwarf_decl_file
 * and dwarf_decl_line follow them (dwarf_attr_integrate). */
static void
function_decl (Dwarf_Die   *cu,
               Dwarf_Addr   pc,
               const char **decl_file,
               int         *decl_line)
{
  Dwarf_Die *scopes = NULL;
  Dwarf_Die *outer = NULL;
  int n = dwarf_getscopes (cu, pc, &scopes);
  int m = n > 0 ? dwarf_getscopes_die (&scopes[0], &outer) : 0;

  for (int i = 0; i < m; i++)
    if (dwarf_tag (&outer[i]) == DW_TAG_subprogram)
      {
        *decl_file = dwarf_decl_file (&outer[i]);
        if (dwarf_decl_line (&outer[i], decl_line) != 0)
          *decl_line = 0;
        break;
      }
  free (outer);
  free (scopes);
}

#ifdef SEXTANT__UNWIND
/* The offset N of a register rule "saved at CFA + N", or -1 if the rule is
 * something else. */
static int
parse_offset_rule (const Dwarf_Op *ops,
                   size_t          nops,
                   int32_t        *off)
{
  if (nops == 0 || ops[0].atom != DW_OP_call_frame_cfa)
    return -1;
  if (nops == 1)
    *off = 0;
  else if (nops == 2 && ops[1].atom == DW_OP_plus_uconst)
    *off = (int32_t) ops[1].number;
  else if (nops == 3 && (ops[1].atom == DW_OP_consts || ops[1].atom == DW_OP_constu) &&
           ops[2].atom == DW_OP_plus)
    *off = (int32_t) ops[1].number;
  else if (nops == 3 && (ops[1].atom == DW_OP_consts || ops[1].atom == DW_OP_constu) &&
           ops[2].atom == DW_OP_minus)
    *off = -(int32_t) ops[1].number;
  else
    return -1;
  return 0;
}

static void
cfi_rule (Dwfl_Module          *mod,
          Dwarf_Addr            addr,
          sextant__unwind_rule *rule)
{
  Dwarf_Addr bias = 0;
  Dwarf_CFI *cfi = dwfl_module_eh_cfi (mod, &bias);
  Dwarf_Frame *frame = NULL;
  Dwarf_Op mem[3];
  Dwarf_Op *ops;
  size_t nops;
  int ra_reg;

  if (cfi == NULL || dwarf_cfi_addrframe (cfi, addr - bias, &frame) != 0)
    {
      cfi = dwfl_module_dwarf_cfi (mod, &bias);
      if (cfi == NULL || dwarf_cfi_addrframe (cfi, addr - bias, &frame) != 0)
        return;
    }
  ra_reg = dwarf_frame_info (frame, NULL, NULL, NULL);
  if (ra_reg < 0 || dwarf_frame_cfa (frame, &ops, &nops) != 0 || nops != 1)
    goto out;
  if (ops[0].atom == DW_OP_bregx)
    {
      rule->cfa_reg = (int8_t) ops[0].number;
      rule->cfa_off = (int32_t) ops[0].number2;
    }
  else if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31)
    {
      rule->cfa_reg = (int8_t) (ops[0].atom - DW_OP_breg0);
      rule->cfa_off = (int32_t) ops[0].number;
    }
  else
    goto out;
  if (rule->cfa_reg != REG_SP && rule->cfa_reg != REG_BP)
    goto fail;

  if (dwarf_frame_register (frame, ra_reg, mem, &ops, &nops) != 0 ||
      parse_offset_rule (ops, nops, &rule->ra_off) != 0)
    goto fail;

  if (dwarf_frame_register (frame, REG_BP, mem, &ops, &nops) != 0)
    rule->bp_how = BP_UNKNOWN;
  else if (nops == 0 && ops == NULL)
    rule->bp_how = BP_SAME;
  else if (parse_offset_rule (ops, nops, &rule->bp_off) == 0)
    rule->bp_how = BP_SAVED;
  else
    rule->bp_how = BP_UNKNOWN;
  goto out;

fail:
  rule->cfa_reg = -1;
out:
  free (frame);
}
#endif

/* Fills @rule for return address @pc. Lock held. */
static void
resolve_pc (uintptr_t             pc,
            sextant__unwind_rule *rule)
{
  static int reported_again;        /* modules re-read once for an unknown address */
  Dwarf_Addr addr = (Dwarf_Addr) pc - 1;   /* inside the call instruction */
  Dwfl_Module *mod = NULL;
  const char *name = NULL;
  const char *decl_file = NULL;
  const char *comp_dir = NULL;
  int decl_line = 0;
  Dwfl_Line *line;

  memset (rule, 0, sizeof *rule);
  rule->pc = pc;
  rule->cfa_reg = -1;
  rule->region = SEXTANT__UNDEF;
  rule->scl = SEXTANT__UNDEF;

  if (dwfl != NULL)
    {
      mod = dwfl_addrmodule (dwfl, addr);
      if (mod == NULL && !reported_again)
        {
          /* a module loaded after MPI_Init (dlopen) */
          reported_again = 1;
          if (report_modules () == 0)
            mod = dwfl_addrmodule (dwfl, addr);
        }
    }

  if (mod != NULL)
    {
      GElf_Off offset = 0;
      GElf_Sym sym;
      Dwarf_Addr cu_bias = 0;
      Dwarf_Die *cu;
      const char *module_name = NULL;

      /* the function is the symbol around the address, its declaration
       * that of the subprogram DIE around it (also when the address is in
       * code inlined into the function) */
      name = dwfl_module_addrinfo (mod, addr, &offset, &sym, NULL, NULL, NULL);
      dwfl_module_info (mod, NULL, NULL, NULL, NULL, NULL, &module_name, NULL);
      cu = dwfl_module_addrdie (mod, addr, &cu_bias);
      if (cu != NULL)
        {
          Dwarf_Attribute attr;

          comp_dir = dwarf_formstring (dwarf_attr (cu, DW_AT_comp_dir, &attr));
          function_decl (cu, addr - cu_bias, &decl_file, &decl_line);
        }

      line = dwfl_module_getsrc (mod, addr);
      if (line != NULL)
        {
          int lineno = 0;
          const char *file = dwfl_lineinfo (line, NULL, &lineno, NULL, NULL, NULL);
          uint32_t file_id = file_string (file, comp_dir);

          if (file_id != SEXTANT__UNDEF && lineno > 0)
            rule->scl = sextant__def_scl (&sextant__rec.defs, file_id, (uint32_t) lineno);
        }
      if (name != NULL)
        {
          static const char *const outer[] = {
            "_start", "__libc_start_main", "__libc_start_call_main", "start_thread",
            "__clone", "__clone3", "clone", "clone3",
          };
          char plain[256];

          rule->region = region_of_function (function_name (name, plain, sizeof plain),
                                             decl_file, comp_dir, decl_line);
          rule->stop = strcmp (name, "main") == 0;
          for (size_t i = 0; i < sizeof outer / sizeof outer[0]; i++)
            if (strcmp (name, outer[i]) == 0 || (strncmp (name, outer[i], strlen (outer[i])) == 0 &&
                                                  name[strlen (outer[i])] == '@'))
              rule->outer = 1;
        }
      else if (module_name != NULL)
        {
          char label[PATH_MAX + 8];
          const char *base = strrchr (module_name, '/');

          snprintf (label, sizeof label, "?? (%s)", base != NULL ? base + 1 : module_name);
          rule->region = region_of_function (label, NULL, NULL, 0);
        }
#ifdef SEXTANT__UNWIND
      cfi_rule (mod, addr, rule);
#endif
    }

  if (rule->region == SEXTANT__UNDEF)
    {
      if (unknown_region == SEXTANT__UNDEF)
        unknown_region = region_of_function ("??", NULL, NULL, 0);
      rule->region = unknown_region;
    }
}

/* A miss of the per-thread rule cache: the process cache, else libdw. */
static __attribute__ ((noinline)) const sextant__unwind_rule *
rule_miss (sextant__unwind_rule *slot,
           uintptr_t             pc)
{
  uint32_t index;

  pthread_mutex_lock (&sextant__rec.lock);
  if (sextant__blobmap_get (&rule_index, &pc, sizeof pc, &index))
    *slot = rules[index];
  else
    {
      resolve_pc (pc, slot);
      if (sextant__grow ((void **) &rules, &cap_rules, n_rules + 1, sizeof *rules) == 0 &&
          sextant__blobmap_put (&rule_index, &pc, sizeof pc, (uint32_t) n_rules) == 0)
        rules[n_rules++] = *slot;
    }
  pthread_mutex_unlock (&sextant__rec.lock);
  return slot;
}

/* The rule for @pc: per-thread cache (a compare), else rule_miss. */
static inline const sextant__unwind_rule *
rule_get (sextant__thread *t,
          uintptr_t        pc)
{
  sextant__unwind_rule *slot = &t->rules[((pc >> 2) ^ (pc >> 13)) & (RULE_SLOTS - 1)];

  if (SEXTANT__LIKELY (slot->pc == pc))
    return slot;
  return rule_miss (slot, pc);
}

static size_t
chain_stride (void)
{
  return sizeof (sextant__chain_slot) + (size_t) sextant__rec.callpath * sizeof (uintptr_t);
}

static int
caches_alloc (sextant__thread *t)
{
  t->rules = calloc (RULE_SLOTS, sizeof *t->rules);
  if (sextant__rec.callpath > 0)
    {
      t->chains = calloc (CHAIN_SLOTS, chain_stride ());
      t->walks = calloc (WALK_SLOTS, sizeof (sextant__walk_slot) +
                         2 * (size_t) sextant__rec.callpath * sizeof (stack_read));
    }
  if (t->rules == NULL || (sextant__rec.callpath > 0 && (t->chains == NULL || t->walks == NULL)))
    {
      sextant__callsite_thread_free (t);
      return -1;
    }
  return 0;
}

static inline uint64_t
hash_pc (uint64_t  hash,
         uintptr_t pc)
{
  hash ^= pc;
  hash *= UINT64_C (0xff51afd7ed558ccd);
  return hash ^ (hash >> 32);
}

/* Walks up from the wrapper's frame, collecting at most @max return
 * addresses into @pcs, their hash into *@hash, and into @w the registers
 * and the stack words the result depends on: every return address read,
 * and a saved frame pointer (or the caller's own) only if a later frame's
 * CFA was computed from it - code without frame pointers keeps other
 * values in that register, which must not make the walk look different. */
static uint32_t
walk (sextant__thread    *t,
      void               *frame,
      void               *ra,
      uintptr_t          *pcs,
      uint32_t            max,
      uint64_t           *hash,
      sextant__walk_slot *w)
{
  uint64_t h = UINT64_C (0x9e3779b97f4a7c15);
  uint32_t n = 0;

#ifdef SEXTANT__UNWIND
  const uintptr_t *fp = frame;
  uintptr_t pc = fp[1];
  uintptr_t sp = (uintptr_t) (fp + 2);
  uintptr_t bp = fp[0];
  /* a read of 8 bytes at a is on the stack iff a - lo <= room */
  uintptr_t lo = t->stack_lo;
  uintptr_t room = t->stack_hi > lo + sizeof (uintptr_t) ? t->stack_hi - lo - sizeof (uintptr_t) : 0;
  const sextant__unwind_rule *rule = rule_get (t, pc);
  stack_read reads[2 * (SEXTANT__MAX_CALLPATH + 1)];
  uint8_t needed[2 * (SEXTANT__MAX_CALLPATH + 1)];
  int bp_from = -1;                 /* bp is: -1 the caller's, -2 none, k reads[k] */
  uint32_t n_reads = 0;

  (void) ra;
  w->pc = pc;
  w->sp = sp;
  w->bp = bp;
  w->use_bp = 0;
  pcs[n++] = pc;
  h = hash_pc (h, pc);
  while (n < max && rule->cfa_reg >= 0 && !rule->stop)
    {
      const sextant__unwind_rule *next;
      uintptr_t cfa, ra_at;

      if (rule->cfa_reg == REG_BP)
        {
          if (bp_from == -1)
            w->use_bp = 1;
          else if (bp_from >= 0)
            needed[bp_from] = 1;
        }
      cfa = (rule->cfa_reg == REG_SP ? sp : bp) + (uintptr_t) (intptr_t) rule->cfa_off;
      ra_at = cfa + (uintptr_t) (intptr_t) rule->ra_off;
      if (cfa <= sp || ra_at - lo > room)
        break;
      pc = *(const uintptr_t *) ra_at;
      reads[n_reads].addr = ra_at;
      reads[n_reads].value = pc;
      needed[n_reads++] = 1;
      if (rule->bp_how == BP_SAVED)
        {
          uintptr_t bp_at = cfa + (uintptr_t) (intptr_t) rule->bp_off;

          if (bp_at - lo > room)
            break;
          bp = *(const uintptr_t *) bp_at;
          reads[n_reads].addr = bp_at;
          reads[n_reads].value = bp;
          needed[n_reads] = 0;
          bp_from = (int) n_reads++;
        }
      else if (rule->bp_how == BP_UNKNOWN)
        {
          bp = 0;
          bp_from = -2;
        }
      sp = cfa;
      if (pc < 4096)
        break;
      next = rule_get (t, pc);
      if (next->outer)
        break;
      pcs[n++] = pc;
      h = hash_pc (h, pc);
      rule = next;
    }
  w->n_reads = 0;
  for (uint32_t i = 0; i < n_reads; i++)
    if (needed[i])
      w->reads[w->n_reads++] = reads[i];
#else
  (void) t;
  (void) frame;
  (void) max;
  pcs[n++] = (uintptr_t) ra;
  h = hash_pc (h, (uintptr_t) ra);
  w->pc = (uintptr_t) ra;
  w->sp = 0;
  w->bp = 0;
  w->use_bp = 0;
  w->n_reads = 0;
#endif
  *hash = h | 1;                    /* 0 marks an empty chain slot */
  return n;
}

uint32_t
sextant__callsite_scl (sextant__thread *t,
                       void            *ra)
{
  if (SEXTANT__UNLIKELY (t->rules == NULL) && caches_alloc (t) != 0)
    return SEXTANT__UNDEF;
  return rule_get (t, (uintptr_t) ra)->scl;
}

int
sextant__callsite_function (sextant__thread *t,
                            void            *ra,
                            char            *file,
                            size_t           size,
                            uint32_t        *line)
{
  uint32_t region;
  int rc = -1;

  if (SEXTANT__UNLIKELY (t->rules == NULL) && caches_alloc (t) != 0)
    return -1;
  region = rule_get (t, (uintptr_t) ra)->region;
  pthread_mutex_lock (&sextant__rec.lock);
  if (region < sextant__rec.defs.n_regions)
    {
      const sextant__region_def *def = &sextant__rec.defs.regions[region];

      if (def->file < sextant__rec.defs.n_strings &&
          snprintf (file, size, "%s", sextant__rec.defs.strings[def->file]) < (int) size)
        {
          *line = def->begin;
          rc = 0;
        }
    }
  pthread_mutex_unlock (&sextant__rec.lock);
  return rc;
}

/* A chain not in the thread's cache: its contexts are defined (under the
 * lock) and it replaces @slot. The rules are in this thread's cache now
 * (the walk needed them) unless they were evicted; contexts are defined
 * outermost first so that parents exist before children. */
static __attribute__ ((noinline)) void
chain_miss (sextant__thread     *t,
            sextant__chain_slot *slot,
            uint64_t             hash,
            const uintptr_t     *pcs,
            uint32_t             n)
{
  sextant__unwind_rule frames[SEXTANT__MAX_CALLPATH + 1];
  uint32_t ctx = SEXTANT__UNDEF;

  for (uint32_t i = 0; i < n; i++)
    frames[i] = *rule_get (t, pcs[i]);
  pthread_mutex_lock (&sextant__rec.lock);
  for (uint32_t i = n; i-- > 0;)
    {
      if (frames[i].region == SEXTANT__UNDEF)
        continue;
      ctx = sextant__def_context (&sextant__rec.defs, frames[i].region, frames[i].scl, ctx);
    }
  pthread_mutex_unlock (&sextant__rec.lock);
  slot->hash = hash;
  slot->n = n;
  slot->scl = frames[0].scl;
  slot->context = ctx;
  memcpy (slot->pcs, pcs, n * sizeof *pcs);
}

/* A walk not in the thread's walk cache: walks, then finds the chain of
 * return addresses in the chain cache or defines its contexts; @w becomes
 * this walk. */
static __attribute__ ((noinline)) void
walk_miss (sextant__thread    *t,
           void               *frame,
           void               *ra,
           uint32_t            callpath,
           sextant__walk_slot *w)
{
  uintptr_t pcs[SEXTANT__MAX_CALLPATH + 1];
  sextant__chain_slot *slot;
  uint64_t hash;
  uint32_t n = walk (t, frame, ra, pcs, callpath, &hash, w);

  slot = (sextant__chain_slot *) ((char *) t->chains +
                                  (hash & (CHAIN_SLOTS - 1)) * (sizeof *slot + callpath * sizeof (uintptr_t)));
  if (slot->hash != hash || slot->n != n || memcmp (slot->pcs, pcs, n * sizeof *pcs) != 0)
    chain_miss (t, slot, hash, pcs, n);
  w->scl = slot->scl;
  w->context = slot->context;
}

void
sextant__callsite (sextant__thread *t,
                   void            *frame,
                   void            *ra,
                   uint32_t        *scl,
                   uint32_t        *context)
{
  uint32_t callpath = (uint32_t) sextant__rec.callpath;
  const uintptr_t *fp = frame;
  sextant__walk_slot *w;
  uintptr_t pc, sp;
  uint32_t i;

  if (SEXTANT__UNLIKELY (t->rules == NULL) && caches_alloc (t) != 0)
    {
      *scl = SEXTANT__UNDEF;
      *context = SEXTANT__UNDEF;
      return;
    }
#ifdef SEXTANT__UNWIND
  pc = fp[1];
  sp = (uintptr_t) (fp + 2);
#else
  pc = (uintptr_t) ra;
  sp = 0;
#endif
  if (callpath == 0)
    {
      *scl = rule_get (t, pc)->scl;
      *context = SEXTANT__UNDEF;
      return;
    }

  /* the same return address with the same stack pointer and the same words
   * where the walk read them is the same walk */
  w = (sextant__walk_slot *) ((char *) t->walks +
                              (((pc >> 2) ^ (sp >> 4) ^ (sp >> 12)) & (WALK_SLOTS - 1)) *
                              (sizeof *w + 2 * callpath * sizeof (stack_read)));
  if (SEXTANT__LIKELY (w->pc == pc && w->sp == sp && (!w->use_bp || w->bp == fp[0])))
    {
      for (i = 0; i < w->n_reads && *(const uintptr_t *) w->reads[i].addr == w->reads[i].value; i++)
        ;
      if (SEXTANT__LIKELY (i == w->n_reads))
        {
          *scl = w->scl;
          *context = w->context;
          return;
        }
    }
  walk_miss (t, frame, ra, callpath, w);
  *scl = w->scl;
  *context = w->context;
}
