/*
   The checkpoint file as bytes (src/ts/checkpoint.c writes and reads its records through PETSc's binary viewer): its
   length in its header, a CRC-32 of all of it in a trailer, checked before a restart reads a record; the path
   checked for writing at set-up. All on rank 0 (the binary viewer writes and reads the file there), the verdict
   broadcast, so that every process stops with the same error.

   The trailer (16 bytes, after the last record): "SVCK", the length of what precedes it (8 bytes) and the CRC-32
   (zlib's, 4 bytes) of what precedes it, big-endian as PETSc's records are.
*/
#include <simpvi/private/tssimpviimpl.h> /*I "simpvi.h" I*/
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define TRAILER_LEN 16
#define MSG_LEN     (PETSC_MAX_PATH_LEN + 512)

static const unsigned char trailertag[4] = {'S', 'V', 'C', 'K'};

/* CRC-32 (the polynomial of zlib, Ethernet and PNG), one byte at a time from a table */
static uint32_t Crc32(uint32_t crc, const unsigned char *buf, size_t n)
{
  static uint32_t table[256];
  static int      ready = 0;

  if (!ready) {
    for (uint32_t i = 0; i < 256; i++) {
      uint32_t c = i;

      for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      table[i] = c;
    }
    ready = 1;
  }
  crc = ~crc;
  for (size_t i = 0; i < n; i++) crc = table[(crc ^ buf[i]) & 0xff] ^ (crc >> 8);
  return ~crc;
}

static void PutBE(unsigned char *b, uint64_t v, int n)
{
  for (int i = n - 1; i >= 0; i--, v >>= 8) b[i] = (unsigned char)(v & 0xff);
}

static uint64_t GetBE(const unsigned char *b, int n)
{
  uint64_t v = 0;

  for (int i = 0; i < n; i++) v = v << 8 | b[i];
  return v;
}

/* The CRC-32 of the first len bytes of fd; -1 on a read error */
static int CrcOfFile(int fd, off_t len, uint32_t *crc)
{
  unsigned char buf[1 << 16];
  off_t         done = 0;

  *crc = 0;
  while (done < len) {
    size_t  want = (size_t)PetscMin((off_t)sizeof(buf), len - done);
    ssize_t got  = pread(fd, buf, want, done);

    if (got <= 0) return -1;
    *crc = Crc32(*crc, buf, (size_t)got);
    done += got;
  }
  return 0;
}

/* Every process stops with rank 0's message, if it has one */
static PetscErrorCode Verdict(MPI_Comm comm, PetscErrorCode code, char msg[])
{
  int c = (int)code;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Bcast(&c, 1, MPI_INT, 0, comm));
  PetscCallMPI(MPI_Bcast(msg, MSG_LEN, MPI_CHAR, 0, comm));
  PetscCheck(!c, comm, (PetscErrorCode)c, "%s", msg);
  PetscFunctionReturn(0);
}

/* Rank 0: the length into the header, the trailer after the records, all on disk */
static void Finish(const char tmp[], char msg[])
{
  unsigned char head[2 * sizeof(PetscInt)], trailer[TRAILER_LEN];
  struct stat   st;
  uint32_t      crc;
  int           fd = open(tmp, O_RDWR);
  uint64_t      len;

  if (fd < 0 || fstat(fd, &st)) {
    snprintf(msg, MSG_LEN, "TSSIMPVI could not reopen its checkpoint %s to checksum it (%s)", tmp, strerror(errno));
    if (fd >= 0) close(fd);
    return;
  }
  len = (uint64_t)st.st_size;
  PutBE(head, len >> 31, sizeof(PetscInt)); /* two integers below 2^31: PetscInt may have 32 bits */
  PutBE(head + sizeof(PetscInt), len & 0x7fffffff, sizeof(PetscInt));
  if (pwrite(fd, head, sizeof(head), SIMPVI_CP_LENGTHHI * sizeof(PetscInt)) != (ssize_t)sizeof(head) || CrcOfFile(fd, st.st_size, &crc)) {
    snprintf(msg, MSG_LEN, "TSSIMPVI could not checksum its checkpoint %s (%s)", tmp, strerror(errno));
    close(fd);
    return;
  }
  memcpy(trailer, trailertag, 4);
  PutBE(trailer + 4, len, 8);
  PutBE(trailer + 12, crc, 4);
  if (pwrite(fd, trailer, TRAILER_LEN, st.st_size) != TRAILER_LEN || fsync(fd)) {
    snprintf(msg, MSG_LEN, "TSSIMPVI could not write its checkpoint %s to disk (%s)", tmp, strerror(errno));
    close(fd);
    return;
  }
  if (close(fd)) snprintf(msg, MSG_LEN, "TSSIMPVI could not write its checkpoint %s to disk (%s)", tmp, strerror(errno));
}

/*
  SimpVICheckpointFileFinish_Private - collective: the records of tmp (closed) get their length and checksum, go to
  disk (fsync), and tmp is renamed over file: a crash at any moment leaves the old file or the new one, whole
*/
PetscErrorCode SimpVICheckpointFileFinish_Private(MPI_Comm comm, const char tmp[], const char file[])
{
  PetscMPIInt    rank;
  PetscErrorCode code         = 0;
  char           msg[MSG_LEN] = "";

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (rank == 0) {
    Finish(tmp, msg);
    if (!msg[0] && rename(tmp, file)) snprintf(msg, MSG_LEN, "TSSIMPVI could not rename its checkpoint %s to %s (%s)", tmp, file, strerror(errno));
    if (msg[0]) code = PETSC_ERR_FILE_WRITE;
  }
  PetscCall(Verdict(comm, code, msg));
  PetscFunctionReturn(0);
}

/* Rank 0: what is wrong with the file, in msg (empty: nothing) */
static void Verify(const char file[], char msg[])
{
  const PetscInt isz = (PetscInt)sizeof(PetscInt);
  unsigned char  head[SIMPVI_CP_NHEAD * 8], trailer[TRAILER_LEN];
  struct stat    st;
  off_t          size;
  uint64_t       len;
  uint32_t       crc;
  PetscBool      sealed = PETSC_FALSE; /* the trailer is whole and its checksum matches */
  int            fd = open(file, O_RDONLY), fsz = 0;
  ssize_t        nhead;

  if (fd < 0 || fstat(fd, &st)) {
    snprintf(msg, MSG_LEN, "TSSIMPVI cannot read the checkpoint %s given to -ts_simpvi_restart (%s)", file, strerror(errno));
    if (fd >= 0) close(fd);
    return;
  }
  size = st.st_size;
  if (S_ISDIR(st.st_mode)) {
    snprintf(msg, MSG_LEN, "TSSIMPVI cannot restart from the checkpoint %s: it is a directory", file);
    close(fd);
    return;
  }
  if (size >= TRAILER_LEN && pread(fd, trailer, TRAILER_LEN, size - TRAILER_LEN) == TRAILER_LEN && !memcmp(trailer, trailertag, 4) && GetBE(trailer + 4, 8) == (uint64_t)(size - TRAILER_LEN)) {
    if (CrcOfFile(fd, size - TRAILER_LEN, &crc)) {
      snprintf(msg, MSG_LEN, "TSSIMPVI cannot read the checkpoint %s (%s)", file, strerror(errno));
      close(fd);
      return;
    }
    if (crc != (uint32_t)GetBE(trailer + 12, 4)) {
      snprintf(msg, MSG_LEN, "The checkpoint %s is corrupt: its checksum (CRC-32) does not match its contents; a byte of it has changed since it was written", file);
      close(fd);
      return;
    }
    sealed = PETSC_TRUE;
  }
  nhead = pread(fd, head, sizeof(head), 0);
  close(fd);
  if (nhead < 0) nhead = 0;
  memset(head + nhead, 0, sizeof(head) - (size_t)nhead);
  if (!size) {
    snprintf(msg, MSG_LEN, "The checkpoint %s is truncated: it is empty", file);
    return;
  }
  if (nhead >= 4 && GetBE(head, 4) == SIMPVI_CHECKPOINT_MAGIC) fsz = 4; /* the size of the PetscInt that wrote it */
  else if (nhead >= 8 && GetBE(head, 8) == SIMPVI_CHECKPOINT_MAGIC) fsz = 8;
  if (!fsz) {
    if (nhead < 8) snprintf(msg, MSG_LEN, "The checkpoint %s is truncated, or not a TSSIMPVI checkpoint: it has %lld bytes", file, (long long)size);
    else snprintf(msg, MSG_LEN, "%s is not a TSSIMPVI checkpoint: it does not begin as one (a file of another program%s)", file, sealed ? "" : ", or a checkpoint corrupt in its first bytes");
    return;
  }
  if (fsz != isz) {
    snprintf(msg, MSG_LEN, "The checkpoint %s was written by a simpvi built with %d-byte integers (PetscInt), but this one has %d-byte integers", file, fsz, (int)isz);
    return;
  }
  if (nhead >= 2 * isz && GetBE(head + isz, isz) != SIMPVI_CHECKPOINT_VERSION) {
    const long long version = (long long)GetBE(head + isz, isz);

    if (version < SIMPVI_CHECKPOINT_VERSION)
      snprintf(msg, MSG_LEN, "The checkpoint %s was written by an older simpvi (checkpoint format %lld%s); this simpvi reads format %d only: finish that run with the simpvi that wrote it, or start again", file, version, version < 2 ? ", without a checksum" : "", SIMPVI_CHECKPOINT_VERSION);
    else snprintf(msg, MSG_LEN, "The checkpoint %s was written by another simpvi (checkpoint format %lld); this simpvi reads format %d only", file, version, SIMPVI_CHECKPOINT_VERSION);
    return;
  }
  if (nhead < SIMPVI_CP_NHEAD * isz) {
    snprintf(msg, MSG_LEN, "The checkpoint %s is truncated: it has %lld bytes, less than its header", file, (long long)size);
    return;
  }
  len = GetBE(head + SIMPVI_CP_LENGTHHI * isz, isz) << 31 | GetBE(head + SIMPVI_CP_LENGTHLO * isz, isz);
  if (!sealed) {
    if ((uint64_t)size < len + TRAILER_LEN) snprintf(msg, MSG_LEN, "The checkpoint %s is truncated: it has %lld bytes of the %lld it was written with", file, (long long)size, (long long)(len + TRAILER_LEN));
    else if ((uint64_t)size > len + TRAILER_LEN) snprintf(msg, MSG_LEN, "The checkpoint %s is corrupt: it has %lld bytes, more than the %lld it was written with", file, (long long)size, (long long)(len + TRAILER_LEN));
    else snprintf(msg, MSG_LEN, "The checkpoint %s is corrupt: its checksum record at the end is damaged", file);
    return;
  }
  if (GetBE(head + SIMPVI_CP_SCALARSIZE * isz, isz) != sizeof(PetscScalar) || GetBE(head + SIMPVI_CP_REALSIZE * isz, isz) != sizeof(PetscReal)) {
    snprintf(msg, MSG_LEN, "The checkpoint %s was written by a simpvi built with %d-byte scalars and %d-byte reals, but this one has %d-byte scalars and %d-byte reals", file, (int)GetBE(head + SIMPVI_CP_SCALARSIZE * isz, isz), (int)GetBE(head + SIMPVI_CP_REALSIZE * isz, isz), (int)sizeof(PetscScalar), (int)sizeof(PetscReal));
    return;
  }
}

/*
  SimpVICheckpointFileVerify_Private - collective: stops with an error that names file and says what is wrong with it
  (unreadable, truncated, corrupt, written by another program or another build or format of simpvi) before any record
  of it is read
*/
PetscErrorCode SimpVICheckpointFileVerify_Private(MPI_Comm comm, const char file[])
{
  PetscMPIInt    rank;
  PetscErrorCode code         = 0;
  char           msg[MSG_LEN] = "";

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (rank == 0) {
    Verify(file, msg);
    if (msg[0]) code = strstr(msg, "cannot read") ? PETSC_ERR_FILE_OPEN : PETSC_ERR_FILE_UNEXPECTED;
  }
  PetscCall(Verdict(comm, code, msg));
  PetscFunctionReturn(0);
}

/*
  SimpVICheckpointFileCheckWritable_Private - collective, at set-up: stops with an error now, not at the first write
  -ts_simpvi_checkpoint_every steps later, if file.tmp cannot be created or file is a directory
*/
PetscErrorCode SimpVICheckpointFileCheckWritable_Private(MPI_Comm comm, const char file[])
{
  PetscMPIInt    rank;
  PetscErrorCode code         = 0;
  char           msg[MSG_LEN] = "";

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  if (rank == 0) {
    char        tmp[PETSC_MAX_PATH_LEN + 8];
    struct stat st;
    PetscBool   existed;
    int         fd;

    snprintf(tmp, sizeof(tmp), "%s.tmp", file);
    existed = (PetscBool)!stat(tmp, &st);
    if (!stat(file, &st) && S_ISDIR(st.st_mode)) snprintf(msg, MSG_LEN, "TSSIMPVI cannot write its checkpoint to %s (-ts_simpvi_checkpoint): it is a directory", file);
    else if ((fd = open(tmp, O_WRONLY | O_CREAT, 0666)) < 0) snprintf(msg, MSG_LEN, "TSSIMPVI cannot write its checkpoint to %s (-ts_simpvi_checkpoint): %s cannot be created (%s)", file, tmp, strerror(errno));
    else {
      close(fd);
      if (!existed) unlink(tmp);
    }
    if (msg[0]) code = PETSC_ERR_FILE_OPEN;
  }
  PetscCall(Verdict(comm, code, msg));
  PetscFunctionReturn(0);
}
