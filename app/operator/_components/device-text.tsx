import { useTranslations } from "next-intl";
import { deviceName } from "@/lib/i18n/device-name";
import { parseDeviceLabel } from "@/lib/session/device-label";

/** A recorded device ("Chrome 131 on Linux") in the page's language, as a document's history names it. */
export function DeviceText({ device }: { device: string | null }) {
  const sessions = useTranslations("sessions");
  const t = useTranslations("operator");
  if (!device) return <>{t("noDevice")}</>;
  const parts = parseDeviceLabel(device);
  return <>{parts ? deviceName(sessions, parts) : device}</>;
}
