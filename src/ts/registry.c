/*
   The named schemes of TSSIMPVI (midpoint, trapezoid, simpson, lobatto, gauss and the user's): a registry of
   (quadrature, degree), from which the TS type builds its scheme table (src/core/scheme.c).
*/
#include <simpvi/private/tssimpviimpl.h> /*I "simpvi.h" I*/

const char *const TSSimpVIQuadratures[] = {"lobatto", "gauss", "TSSimpVIQuadrature", "TSSIMPVI_QUADRATURE_", NULL};

typedef struct _SimpVISchemeLink *SimpVISchemeLink;
struct _SimpVISchemeLink {
  char              *name;
  TSSimpVIQuadrature quadrature;
  PetscInt           degree;
  PetscBool          degreefixed;
  SimpVISchemeLink   next;
};
static SimpVISchemeLink SchemeList;
static PetscBool        TSSimpVIRegisterAllCalled;

/*@C
  TSSimpVIRegister - Adds a named scheme to the `TSSIMPVI` registry

  Not Collective, but the same schemes should be registered on all processes

  Input Parameters:
+ name        - the name, used with `TSSimpVISetType()` and -ts_simpvi_type
. quadrature  - `TSSIMPVI_QUADRATURE_LOBATTO` or `TSSIMPVI_QUADRATURE_GAUSS`
. degree      - the default polynomial degree s (order 2s)
- degreefixed - `PETSC_TRUE` if -ts_simpvi_degree may not change the degree

  Level: advanced

  Note:
  Registering an existing name replaces it.

.seealso: `TSSIMPVI`, `TSSimpVIRegisterAll()`, `TSSimpVISetType()`
@*/
PetscErrorCode TSSimpVIRegister(const char name[], TSSimpVIQuadrature quadrature, PetscInt degree, PetscBool degreefixed)
{
  SimpVISchemeLink link;

  PetscFunctionBegin;
  PetscCall(TSSimpVIRegisterAll()); /* the built-in names first, so that a user's scheme may replace one */
  PetscCheck(degree >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Degree %" PetscInt_FMT " must be at least 1", degree);
  for (link = SchemeList; link; link = link->next) {
    PetscBool match;

    PetscCall(PetscStrcmp(link->name, name, &match));
    if (match) break;
  }
  if (!link) {
    PetscCall(PetscNew(&link));
    PetscCall(PetscStrallocpy(name, &link->name));
    link->next = SchemeList;
    SchemeList = link;
  }
  link->quadrature  = quadrature;
  link->degree      = degree;
  link->degreefixed = degreefixed;
  PetscFunctionReturn(0);
}

/*@C
  TSSimpVIRegisterAll - Registers the built-in `TSSIMPVI` schemes: midpoint, trapezoid, simpson, lobatto and gauss

  Not Collective

  Level: advanced

.seealso: `TSSimpVIRegister()`, `TSSimpVIRegisterDestroy()`
@*/
PetscErrorCode TSSimpVIRegisterAll(void)
{
  PetscFunctionBegin;
  if (TSSimpVIRegisterAllCalled) PetscFunctionReturn(0);
  TSSimpVIRegisterAllCalled = PETSC_TRUE;
  PetscCall(PetscRegisterFinalize(TSSimpVIRegisterDestroy)); /* the registry frees itself, user schemes included */
  PetscCall(TSSimpVIRegister(TSSIMPVIGAUSS, TSSIMPVI_QUADRATURE_GAUSS, 2, PETSC_FALSE));
  PetscCall(TSSimpVIRegister(TSSIMPVILOBATTO, TSSIMPVI_QUADRATURE_LOBATTO, 3, PETSC_FALSE));
  PetscCall(TSSimpVIRegister(TSSIMPVISIMPSON, TSSIMPVI_QUADRATURE_LOBATTO, 2, PETSC_TRUE));
  PetscCall(TSSimpVIRegister(TSSIMPVITRAPEZOID, TSSIMPVI_QUADRATURE_LOBATTO, 1, PETSC_TRUE));
  PetscCall(TSSimpVIRegister(TSSIMPVIMIDPOINT, TSSIMPVI_QUADRATURE_GAUSS, 1, PETSC_TRUE));
  PetscFunctionReturn(0);
}

/*@C
  TSSimpVIRegisterDestroy - Frees the `TSSIMPVI` scheme registry

  Not Collective

  Level: advanced

.seealso: `TSSimpVIRegister()`, `TSSimpVIRegisterAll()`
@*/
PetscErrorCode TSSimpVIRegisterDestroy(void)
{
  PetscFunctionBegin;
  while (SchemeList) {
    SimpVISchemeLink link = SchemeList;

    SchemeList = link->next;
    PetscCall(PetscFree(link->name));
    PetscCall(PetscFree(link));
  }
  TSSimpVIRegisterAllCalled = PETSC_FALSE;
  PetscFunctionReturn(0);
}

/* The registered names, for -ts_simpvi_type (the array to be freed with PetscFree(); its strings stay the registry's) */
PetscErrorCode SimpVISchemeNames_Private(PetscInt *n, const char ***names)
{
  PetscInt count = 0;

  PetscFunctionBegin;
  PetscCall(TSSimpVIRegisterAll());
  for (SimpVISchemeLink link = SchemeList; link; link = link->next) count++;
  PetscCall(PetscMalloc1(count, names));
  count = 0;
  for (SimpVISchemeLink link = SchemeList; link; link = link->next) (*names)[count++] = link->name;
  *n = count;
  PetscFunctionReturn(0);
}

/* Looks a name up; the caller reports unknown names so the message can list the choices */
PetscErrorCode SimpVISchemeFind_Private(const char name[], TSSimpVIQuadrature *quadrature, PetscInt *degree, PetscBool *degreefixed)
{
  PetscFunctionBegin;
  PetscCall(TSSimpVIRegisterAll());
  for (SimpVISchemeLink link = SchemeList; link; link = link->next) {
    PetscBool match;

    PetscCall(PetscStrcmp(link->name, name, &match));
    if (!match) continue;
    *quadrature  = link->quadrature;
    *degree      = link->degree;
    *degreefixed = link->degreefixed;
    PetscFunctionReturn(0);
  }
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown TSSIMPVI scheme '%s'; choose midpoint, trapezoid, simpson, lobatto, gauss or a name given to TSSimpVIRegister()", name);
}
