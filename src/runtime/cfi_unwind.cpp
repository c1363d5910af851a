#include "runtime/cfi_unwind.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace parperf::runtime {

#if defined(__x86_64__)

namespace {

// DW_EH_PE_*: how a pointer in the tables is stored (low nibble) and what it is relative to.
constexpr std::uint8_t kOmit = 0xff;
constexpr std::uint8_t kFormat = 0x0f, kRelation = 0x70, kIndirect = 0x80;
constexpr std::uint8_t kPcRelative = 0x10, kDataRelative = 0x30;
// .eh_frame_hdr's table as every linker writes it: pairs of 4-byte signed offsets from the header.
constexpr std::uint8_t kDataRelativeSigned4 = 0x3b;

// Reads one mapped segment of a module's tables: a read past either end makes the reader fail (and
// every later read with it) instead of touching memory the segment does not hold.
class TableReader {
 public:
  TableReader(std::uintptr_t at, const UnwindTables& t)
      : at_(at), start_(t.segment_start), end_(t.segment_end) {
    ok_ = at >= start_ && at <= end_;
  }
  bool ok() const { return ok_; }
  std::uintptr_t at() const { return at_; }
  void seek(std::uintptr_t at) {
    if (at < start_ || at > end_) ok_ = false;
    if (ok_) at_ = at;
  }
  template <class T>
  T read() {
    T value{};
    if (!ok_ || end_ - at_ < sizeof(T)) {
      ok_ = false;
      return value;
    }
    __builtin_memcpy(&value, reinterpret_cast<const void*>(at_), sizeof(T));
    at_ += sizeof(T);
    return value;
  }
  std::uint64_t uleb() {
    std::uint64_t value = 0;
    for (unsigned shift = 0; ok_; shift += 7) {
      const auto byte = read<std::uint8_t>();
      if (shift < 64) value |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
      if (!(byte & 0x80)) return value;
      if (shift > 63) ok_ = false;  // longer than any 64-bit value: damage
    }
    return 0;
  }
  std::int64_t sleb() {
    std::uint64_t value = 0;
    for (unsigned shift = 0; ok_; shift += 7) {
      const auto byte = read<std::uint8_t>();
      if (shift < 64) value |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
      if (!(byte & 0x80)) {
        if (shift + 7 < 64 && (byte & 0x40)) value |= ~std::uint64_t{0} << (shift + 7);
        return static_cast<std::int64_t>(value);
      }
      if (shift > 63) ok_ = false;
    }
    return 0;
  }
  // A pointer stored in `encoding`; `data_base` is what data-relative pointers count from. Indirect
  // pointers (a personality routine's) are returned as the address of the pointer: nothing here
  // needs their value.
  std::uintptr_t pointer(std::uint8_t encoding, std::uintptr_t data_base) {
    if (encoding == kOmit) return 0;
    const std::uintptr_t field = at_;
    std::uint64_t value = 0;
    switch (encoding & kFormat) {
      case 0x00:
        value = read<std::uint64_t>();
        break;  // absptr
      case 0x01:
        value = uleb();
        break;
      case 0x02:
        value = read<std::uint16_t>();
        break;
      case 0x03:
        value = read<std::uint32_t>();
        break;
      case 0x04:
        value = read<std::uint64_t>();
        break;
      case 0x09:
        value = static_cast<std::uint64_t>(sleb());
        break;
      case 0x0a:
        value = static_cast<std::uint64_t>(std::int64_t{read<std::int16_t>()});
        break;
      case 0x0b:
        value = static_cast<std::uint64_t>(std::int64_t{read<std::int32_t>()});
        break;
      case 0x0c:
        value = static_cast<std::uint64_t>(read<std::int64_t>());
        break;
      default:
        ok_ = false;
        return 0;
    }
    switch (encoding & kRelation) {
      case 0x00:
        break;
      case kPcRelative:
        value += field;
        break;
      case kDataRelative:
        value += data_base;
        break;
      default:
        ok_ = false;
        return 0;  // text-, function-relative, aligned: not in .eh_frame on Linux
    }
    (void)kIndirect;
    return static_cast<std::uintptr_t>(value);
  }

 private:
  std::uintptr_t at_, start_, end_;
  bool ok_ = true;
};

// How a register of the caller is found, by the frame's row of the table.
enum class How : std::uint8_t {
  unset,        // no rule: callee-saved registers keep their value; the return address is lost
  same,         // the caller's value is this frame's
  undefined,    // not recoverable (the return address: the outermost frame)
  at_cfa,       // saved at CFA + offset
  cfa_plus,     // is CFA + offset
  in_register,  // is in register `offset`
  unknown,      // a DWARF expression: not followed
};
// Plain data, not initialised by default: the states DW_CFA_remember_state may save are an array on
// the handler's stack, filled only when saved (clearing it every step was most of a step's time).
struct Rule {
  How how;
  std::int64_t offset;
};
struct Row {
  std::uint32_t cfa_register;
  std::int64_t cfa_offset;
  bool cfa_known;  // false: the CFA is a DWARF expression
  Rule rule[UnwindRegisters::kCount];
};
Row empty_row() {
  Row row;
  row.cfa_register = UnwindRegisters::kSp;
  row.cfa_offset = 0;
  row.cfa_known = true;
  for (Rule& r : row.rule) r = {How::unset, 0};
  return row;
}

struct Cie {
  std::uint64_t code_alignment = 1;
  std::int64_t data_alignment = 1;
  std::uint64_t return_register = UnwindRegisters::kPc;
  std::uint8_t fde_encoding = 0;  // absptr
  bool augmented = false;         // 'z': FDEs carry an augmentation length
  std::uintptr_t instructions = 0, end = 0;
};

bool read_cie(std::uintptr_t at, const UnwindTables& tables, Cie& cie) {
  TableReader in(at, tables);
  const auto length = in.read<std::uint32_t>();
  if (length == 0 || length == 0xffffffffu) return false;  // a terminator, or the 64-bit form (unused)
  cie.end = in.at() + length;
  if (in.read<std::uint32_t>() != 0) return false;  // an FDE, not a CIE
  const auto version = in.read<std::uint8_t>();
  if (version != 1 && version != 3 && version != 4) return false;
  char augmentation[8] = {};
  for (std::size_t i = 0;; ++i) {
    const char c = static_cast<char>(in.read<std::uint8_t>());
    if (!in.ok() || i == sizeof augmentation) return false;
    augmentation[i] = c;
    if (c == '\0') break;
  }
  if (version == 4) in.read<std::uint16_t>();  // address and segment selector sizes
  cie.code_alignment = in.uleb();
  cie.data_alignment = in.sleb();
  cie.return_register = version == 1 ? in.read<std::uint8_t>() : in.uleb();
  if (augmentation[0] == 'z') {
    cie.augmented = true;
    const std::uint64_t size = in.uleb();
    const std::uintptr_t data_end = in.at() + size;
    for (const char* a = augmentation + 1; *a && in.ok(); ++a) {
      if (*a == 'R')
        cie.fde_encoding = in.read<std::uint8_t>();
      else if (*a == 'P')
        in.pointer(in.read<std::uint8_t>(), 0);
      else if (*a == 'L')
        in.read<std::uint8_t>();
      else if (*a != 'S' && *a != 'B')
        break;  // unknown: its data ends at data_end anyway
    }
    in.seek(data_end);
  } else if (augmentation[0] != '\0') {
    return false;  // "eh" and other pre-'z' forms
  }
  cie.instructions = in.at();
  return in.ok() && cie.end <= tables.segment_end && cie.instructions <= cie.end;
}

// Runs the call-frame instructions in [from, to) into `row` while their location stays at or before
// `target`. `initial` is the CIE's row (DW_CFA_restore). False on damage or an unknown instruction.
bool run_instructions(std::uintptr_t from, std::uintptr_t to, const UnwindTables& tables, const Cie& cie,
                      std::uintptr_t& location, std::uintptr_t target, Row& row, const Row* initial) {
  constexpr int kMaxRemembered = 8;
  Row remembered[kMaxRemembered];
  int depth = 0;
  TableReader in(from, tables);
  const auto set = [&](std::uint64_t reg, How how, std::int64_t offset) {
    if (reg < UnwindRegisters::kCount) row.rule[reg] = {how, offset};
  };
  const auto advance = [&](std::uint64_t delta) {
    location += delta * cie.code_alignment;
    return location <= target;
  };
  const auto data = [&](std::int64_t factored) { return factored * cie.data_alignment; };
  while (in.ok() && in.at() < to) {
    const auto op = in.read<std::uint8_t>();
    const std::uint8_t operand = op & 0x3f;
    switch (op & 0xc0) {
      case 0x40:
        if (!advance(operand)) return true;
        continue;
      case 0x80:
        set(operand, How::at_cfa, data(static_cast<std::int64_t>(in.uleb())));
        continue;
      case 0xc0:
        if (operand < UnwindRegisters::kCount)
          row.rule[operand] = initial ? initial->rule[operand] : Rule{How::unset, 0};
        continue;
      default:
        break;
    }
    switch (op) {
      case 0x00:
        break;    // nop
      case 0x01:  // set_loc
        location = in.pointer(cie.fde_encoding, 0);
        if (location > target) return true;
        break;
      case 0x02:
        if (!advance(in.read<std::uint8_t>())) return true;
        break;
      case 0x03:
        if (!advance(in.read<std::uint16_t>())) return true;
        break;
      case 0x04:
        if (!advance(in.read<std::uint32_t>())) return true;
        break;
      case 0x05: {  // offset_extended
        const std::uint64_t reg = in.uleb();
        set(reg, How::at_cfa, data(static_cast<std::int64_t>(in.uleb())));
        break;
      }
      case 0x06: {  // restore_extended
        const std::uint64_t reg = in.uleb();
        if (reg < UnwindRegisters::kCount) row.rule[reg] = initial ? initial->rule[reg] : Rule{How::unset, 0};
        break;
      }
      case 0x07:
        set(in.uleb(), How::undefined, 0);
        break;
      case 0x08:
        set(in.uleb(), How::same, 0);
        break;
      case 0x09: {  // register
        const std::uint64_t reg = in.uleb();
        set(reg, How::in_register, static_cast<std::int64_t>(in.uleb()));
        break;
      }
      case 0x0a:  // remember_state
        if (depth == kMaxRemembered) return false;
        remembered[depth++] = row;
        break;
      case 0x0b:  // restore_state
        if (depth == 0) return false;
        row = remembered[--depth];
        break;
      case 0x0c:  // def_cfa
        row.cfa_register = static_cast<std::uint32_t>(in.uleb());
        row.cfa_offset = static_cast<std::int64_t>(in.uleb());
        row.cfa_known = true;
        break;
      case 0x0d:
        row.cfa_register = static_cast<std::uint32_t>(in.uleb());
        row.cfa_known = true;
        break;
      case 0x0e:
        row.cfa_offset = static_cast<std::int64_t>(in.uleb());
        break;
      case 0x0f:  // def_cfa_expression (PLT stubs, signal frames): not evaluated
        in.seek(in.at() + in.uleb());
        row.cfa_known = false;
        break;
      case 0x10: {  // expression
        const std::uint64_t reg = in.uleb();
        set(reg, How::unknown, 0);
        in.seek(in.at() + in.uleb());
        break;
      }
      case 0x11: {  // offset_extended_sf
        const std::uint64_t reg = in.uleb();
        set(reg, How::at_cfa, data(in.sleb()));
        break;
      }
      case 0x12:  // def_cfa_sf
        row.cfa_register = static_cast<std::uint32_t>(in.uleb());
        row.cfa_offset = data(in.sleb());
        row.cfa_known = true;
        break;
      case 0x13:
        row.cfa_offset = data(in.sleb());
        break;
      case 0x14: {  // val_offset
        const std::uint64_t reg = in.uleb();
        set(reg, How::cfa_plus, data(static_cast<std::int64_t>(in.uleb())));
        break;
      }
      case 0x15: {  // val_offset_sf
        const std::uint64_t reg = in.uleb();
        set(reg, How::cfa_plus, data(in.sleb()));
        break;
      }
      case 0x16: {  // val_expression
        const std::uint64_t reg = in.uleb();
        set(reg, How::unknown, 0);
        in.seek(in.at() + in.uleb());
        break;
      }
      case 0x2e:
        in.uleb();
        break;      // GNU_args_size
      case 0x2f: {  // GNU_negative_offset_extended
        const std::uint64_t reg = in.uleb();
        set(reg, How::at_cfa, -data(static_cast<std::int64_t>(in.uleb())));
        break;
      }
      default:
        return false;
    }
  }
  return in.ok();
}

// The entry of .eh_frame_hdr's table that covers `pc`: the FDE's address, or 0.
std::uintptr_t find_fde(const UnwindTables& tables, std::uintptr_t pc) {
  const std::uintptr_t header = tables.eh_frame_hdr;
  TableReader in(header, tables);
  if (in.read<std::uint8_t>() != 1) return 0;
  const auto frame_encoding = in.read<std::uint8_t>();
  const auto count_encoding = in.read<std::uint8_t>();
  const auto table_encoding = in.read<std::uint8_t>();
  in.pointer(frame_encoding, header);
  const std::uintptr_t count = in.pointer(count_encoding, header);
  if (!in.ok() || table_encoding != kDataRelativeSigned4 || count == 0) return 0;
  const std::uintptr_t table = in.at();
  if (count > (tables.segment_end - table) / 8) return 0;
  const auto entry = [&](std::uintptr_t i, int field) {
    std::int32_t value;
    __builtin_memcpy(
        &value, reinterpret_cast<const void*>(table + i * 8 + static_cast<std::uintptr_t>(field) * 4), 4);
    return header + static_cast<std::uintptr_t>(static_cast<std::intptr_t>(value));
  };
  // The last entry whose start is at or before pc.
  std::uintptr_t low = 0, high = count;
  while (high - low > 1) {
    const std::uintptr_t middle = low + (high - low) / 2;
    if (entry(middle, 0) <= pc)
      low = middle;
    else
      high = middle;
  }
  return entry(low, 0) <= pc ? entry(low, 1) : 0;
}

// The row of the table for `pc` (its FDE at `fde`): false when the FDE does not cover it or is damaged.
bool row_for(const UnwindTables& tables, std::uintptr_t fde, std::uintptr_t pc, Row& row, bool& covered) {
  covered = false;
  TableReader in(fde, tables);
  const auto length = in.read<std::uint32_t>();
  if (!in.ok() || length == 0 || length == 0xffffffffu) return false;
  const std::uintptr_t end = in.at() + length;
  const std::uintptr_t cie_field = in.at();
  const auto cie_offset = in.read<std::uint32_t>();
  if (!in.ok() || cie_offset == 0 || cie_offset > cie_field) return false;
  Cie cie;
  if (!read_cie(cie_field - cie_offset, tables, cie) || cie.return_register != UnwindRegisters::kPc)
    return false;
  const std::uintptr_t begin = in.pointer(cie.fde_encoding, 0);
  const std::uintptr_t range = in.pointer(cie.fde_encoding & kFormat, 0);
  if (!in.ok() || pc < begin || pc - begin >= range) return false;
  covered = true;
  if (cie.augmented) in.seek(in.at() + in.uleb());
  if (!in.ok() || end > tables.segment_end) return false;
  std::uintptr_t location = begin;
  if (!run_instructions(cie.instructions, cie.end, tables, cie, location, ~std::uintptr_t{0}, row, nullptr))
    return false;
  const Row initial = row;
  location = begin;
  return run_instructions(in.at(), end, tables, cie, location, pc, row, &initial);
}

__attribute__((no_sanitize("address"))) bool read_stack(std::uintptr_t address, std::uintptr_t low,
                                                        std::uintptr_t high, std::intptr_t offset,
                                                        std::uintptr_t& value) {
  if (address < low || address > high - sizeof value || (address & 7) != 0) return false;
  value = *reinterpret_cast<const std::uintptr_t*>(address + static_cast<std::uintptr_t>(offset));
  return true;
}

}  // namespace

namespace {

// make_recipe's rules, without what is derived from them.
UnwindRecipe recipe_rules(const UnwindTables& tables, std::uintptr_t pc) {
  UnwindRecipe recipe;
  recipe.pc = pc;
  const std::uintptr_t fde = tables.eh_frame_hdr ? find_fde(tables, pc) : 0;
  if (!fde) return recipe;  // no_entry
  Row row = empty_row();
  bool covered = false;
  if (!row_for(tables, fde, pc, row, covered)) {
    recipe.outcome = covered ? CfiStep::failed : CfiStep::no_entry;
    return recipe;
  }
  recipe.outcome = CfiStep::failed;
  if (row.rule[UnwindRegisters::kPc].how == How::undefined) {
    recipe.outcome = CfiStep::outermost;
    return recipe;
  }
  const auto fits = [](std::int64_t v) { return v >= -32768 && v <= 32767; };
  if (!row.cfa_known || row.cfa_register >= UnwindRegisters::kCount || row.cfa_offset < INT32_MIN ||
      row.cfa_offset > INT32_MAX)
    return recipe;
  recipe.cfa_register = static_cast<std::uint8_t>(row.cfa_register);
  recipe.cfa_offset = static_cast<std::int32_t>(row.cfa_offset);
  recipe.plain = true;
  for (int i = 0; i < UnwindRecipe::kKept; ++i) {
    const int reg = UnwindRecipe::kKeptRegister[i];
    const Rule& rule = row.rule[reg];
    if (!fits(rule.offset)) return recipe;
    recipe.how[i] = static_cast<std::uint8_t>(rule.how);
    recipe.offset[i] = static_cast<std::int16_t>(rule.offset);
    if (rule.how == How::at_cfa) {
      recipe.saved_register[recipe.saved_count] = static_cast<std::uint8_t>(reg);
      recipe.saved_offset[recipe.saved_count++] = static_cast<std::int16_t>(rule.offset);
    } else if ((rule.how == How::unset || rule.how == How::same) && reg != UnwindRegisters::kPc) {
      recipe.unchanged |= 1u << reg;
    } else if (rule.how != How::undefined) {
      recipe.plain = false;
    }
  }
  if (row.rule[UnwindRegisters::kPc].how != How::at_cfa) recipe.plain = false;
  recipe.outcome = CfiStep::stepped;
  return recipe;
}

}  // namespace

UnwindRecipe make_recipe(const UnwindTables& tables, std::uintptr_t pc) noexcept {
  UnwindRecipe recipe = recipe_rules(tables, pc);
  recipe.follows_sp_and_fp = recipe_follows_sp_and_fp(recipe);
  recipe.keeps_fp = recipe_keeps_fp(recipe);
  recipe.quick = recipe.outcome == CfiStep::stepped && recipe.plain;
  bool saves_pc = false;
  for (int i = 0; i < recipe.saved_count && recipe.quick; ++i) {
    const std::int16_t offset = recipe.saved_offset[i];
    recipe.quick = offset % 8 == 0;
    saves_pc = saves_pc || recipe.saved_register[i] == UnwindRegisters::kPc;
    recipe.saved_mask |= 1u << recipe.saved_register[i];
    if (recipe.saved_register[i] == UnwindRegisters::kPc) recipe.pc_slot = static_cast<std::int8_t>(i);
    if (recipe.saved_register[i] == UnwindRegisters::kFp) recipe.fp_slot = static_cast<std::int8_t>(i);
    recipe.saved_lowest = i == 0 ? offset : std::min(recipe.saved_lowest, offset);
    recipe.saved_highest = i == 0 ? offset : std::max(recipe.saved_highest, offset);
  }
  recipe.quick = recipe.quick && saves_pc && recipe.fp_slot < recipe.pc_slot;
  return recipe;
}

// Reads the interrupted thread's stack, its frames' unused slots included: under AddressSanitizer those
// are poisoned redzones, expected here.
__attribute__((no_sanitize("address"))) CfiStep apply_recipe(const UnwindRecipe& recipe, UnwindRegisters& r,
                                                             std::uintptr_t stack_low,
                                                             std::uintptr_t stack_high, StepReads* reads,
                                                             std::intptr_t stack_offset) noexcept {
  if (recipe.outcome != CfiStep::stepped) return recipe.outcome;
  if (!r.has(recipe.cfa_register)) return CfiStep::failed;
  const std::uintptr_t cfa =
      r.value[recipe.cfa_register] + static_cast<std::uintptr_t>(std::intptr_t{recipe.cfa_offset});
  // The caller's frame lies above this one: a walk that does not climb the stack would not end.
  if (!r.has(UnwindRegisters::kSp) || cfa <= r.value[UnwindRegisters::kSp]) return CfiStep::failed;
  if (recipe.plain) {
    // Every register the caller gets back is either this frame's or saved on the stack: read the saved
    // ones (the return address among them), then drop what the caller does not have.
    std::uintptr_t saved[UnwindRecipe::kKept];
    std::uint32_t found = 0;
    for (int i = 0; i < recipe.saved_count; ++i) {
      const std::uintptr_t at = cfa + static_cast<std::uintptr_t>(std::intptr_t{recipe.saved_offset[i]});
      const int reg = recipe.saved_register[i];
      if (read_stack(at, stack_low, stack_high, stack_offset, saved[i])) {
        found |= 1u << reg;
        if (reads && (reg == UnwindRegisters::kPc || reg == UnwindRegisters::kFp))
          reads->add(at, saved[i], reg == UnwindRegisters::kFp);
      } else if (reads) {
        reads->complete = false;
      }
    }
    if (!(found & (1u << UnwindRegisters::kPc))) return CfiStep::failed;
    r.known &= recipe.unchanged;
    for (int i = 0; i < recipe.saved_count; ++i)
      if (found & (1u << recipe.saved_register[i])) r.set(recipe.saved_register[i], saved[i]);
    if (r.value[UnwindRegisters::kPc] == 0) return CfiStep::outermost;  // a thread's first frame
    r.set(UnwindRegisters::kSp, cfa);
    return CfiStep::stepped;
  }
  // The caller's registers, worked out from this frame's before any is replaced.
  std::uintptr_t kept[UnwindRecipe::kKept];
  std::uint32_t known = 0;
  for (int i = 0; i < UnwindRecipe::kKept; ++i) {
    const int reg = UnwindRecipe::kKeptRegister[i];
    const auto offset = static_cast<std::uintptr_t>(std::intptr_t{recipe.offset[i]});
    bool found = false;
    switch (static_cast<How>(recipe.how[i])) {
      case How::unset:
      case How::same:
        found = reg != UnwindRegisters::kPc && r.has(reg);
        if (found) kept[i] = r.value[reg];
        break;
      case How::at_cfa:
        found = read_stack(cfa + offset, stack_low, stack_high, stack_offset, kept[i]);
        if (reads && (reg == UnwindRegisters::kPc || reg == UnwindRegisters::kFp)) {
          if (found)
            reads->add(cfa + offset, kept[i], reg == UnwindRegisters::kFp);
          else
            reads->complete = false;
        }
        break;
      case How::cfa_plus:
        found = true;
        kept[i] = cfa + offset;
        break;
      case How::in_register:
        found =
            recipe.offset[i] >= 0 && recipe.offset[i] < UnwindRegisters::kCount && r.has(recipe.offset[i]);
        if (found) kept[i] = r.value[recipe.offset[i]];
        break;
      case How::undefined:
      case How::unknown:
        break;
    }
    if (found) known |= 1u << i;
  }
  constexpr int kReturnAddress = UnwindRecipe::kKept - 1;  // kKeptRegister's last: the pc
  if (!(known & (1u << kReturnAddress))) return CfiStep::failed;
  if (kept[kReturnAddress] == 0) return CfiStep::outermost;  // a thread's first frame
  r.known = 0;
  for (int i = 0; i < UnwindRecipe::kKept; ++i)
    if (known & (1u << i)) r.set(UnwindRecipe::kKeptRegister[i], kept[i]);
  r.set(UnwindRegisters::kSp, cfa);
  return CfiStep::stepped;
}

bool recipe_follows_sp_and_fp(const UnwindRecipe& recipe) noexcept {
  if (recipe.outcome != CfiStep::stepped) return true;  // the outcome alone: no register read
  if (recipe.cfa_register != UnwindRegisters::kSp && recipe.cfa_register != UnwindRegisters::kFp)
    return false;
  if (recipe.plain) return true;  // the pc at CFA + offset, the frame pointer saved there or unchanged
  const auto by_cfa_or_stack = [](How how) { return how == How::at_cfa || how == How::cfa_plus; };
  const auto fp = static_cast<How>(recipe.how[1]), pc = static_cast<How>(recipe.how[UnwindRecipe::kKept - 1]);
  return (by_cfa_or_stack(fp) || fp == How::unset || fp == How::same || fp == How::undefined ||
          fp == How::unknown) &&
         (by_cfa_or_stack(pc) || pc == How::undefined || pc == How::unknown || pc == How::unset ||
          pc == How::same);
}

bool recipe_keeps_fp(const UnwindRecipe& recipe) noexcept {
  if (recipe.outcome != CfiStep::stepped) return false;
  const auto fp = static_cast<How>(recipe.how[1]);
  return fp == How::unset || fp == How::same;
}

void keep_recipe(UnwindCache& cache, const UnwindRecipe& recipe) noexcept {
  if (recipe.pc == 0) return;
  // The newest in the first way, the one before it in the second: the older of the two goes.
  UnwindRecipe* set = &cache.entries[recipe_set_of(recipe.pc)];
  set[1] = set[0];
  set[0] = recipe;
}

CfiStep cfi_step(const UnwindTables& tables, UnwindRegisters& r, bool innermost, std::uintptr_t stack_low,
                 std::uintptr_t stack_high) noexcept {
  if (!r.has(UnwindRegisters::kPc)) return CfiStep::no_entry;
  return apply_recipe(make_recipe(tables, r.value[UnwindRegisters::kPc] - (innermost ? 0 : 1)), r, stack_low,
                      stack_high);
}

#else

UnwindRecipe make_recipe(const UnwindTables&, std::uintptr_t pc) noexcept {
  UnwindRecipe recipe;
  recipe.pc = pc;
  return recipe;
}
void keep_recipe(UnwindCache&, const UnwindRecipe&) noexcept {}
CfiStep apply_recipe(const UnwindRecipe&, UnwindRegisters&, std::uintptr_t, std::uintptr_t, StepReads*,
                     std::intptr_t) noexcept {
  return CfiStep::no_entry;
}
bool recipe_follows_sp_and_fp(const UnwindRecipe&) noexcept { return true; }
bool recipe_keeps_fp(const UnwindRecipe&) noexcept { return false; }
CfiStep cfi_step(const UnwindTables&, UnwindRegisters&, bool, std::uintptr_t, std::uintptr_t) noexcept {
  return CfiStep::no_entry;
}

#endif

}  // namespace parperf::runtime
