// family_name, family_named (see family.hpp).
#include "impl/family.hpp"

namespace convlab {

const char* family_name(Family family) {
  switch (family) {
    case Family::cpu:
      return "cpu";
    case Family::cuda:
      return "cuda";
  }
  return "cpu";
}

std::optional<Family> family_named(const std::string& name) {
  for (Family family : {Family::cpu, Family::cuda})
    if (name == family_name(family)) return family;
  return std::nullopt;
}

}  // namespace convlab
